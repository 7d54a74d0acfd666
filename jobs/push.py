"""Publish a generate output as a dataset repository on a Hub-compatible endpoint.

    hrsynth push --output out/demo --repo-id my-team/hr-tickets [--endpoint URL] [--public]
    hrsynth push --output out/demo --repo-id my-team/hr-tickets --to-folder /mirror/hr-tickets

Uploads the shards, the DP samples, the manifest, `.huggingface.yaml` and the card
(`_README.md`, published as the repository's README.md) with `huggingface_hub`; nothing
else in the folder (the run file, stray files) goes. The token is read from the variable
--token-env names, never from the command line. The personal-data audit's counts are
printed first: a run with findings under policy `flag` is published as it is, with the
count in its card.
"""

import shutil
import sys
import tempfile
from pathlib import Path

from jobs.entry import main_for
from synth import ConfigError
from synth.config.jobs import PushOptions
from synth.config.options import options_from

OPTIONS = PushOptions
PUBLISHED = ("part-*.parquet", "_dp_samples.parquet", "_manifest.json", ".huggingface.yaml")


def check_output(output: Path) -> None:
    from synth.io.card import CARD

    if not (output / "_manifest.json").is_file() or not (output / CARD).is_file():
        raise ConfigError(
            f"--output {output}: no _manifest.json and {CARD} there; push a finished "
            "`hrsynth generate` output (this version writes both)"
        )


def staged(output: Path, into: Path) -> list[str]:
    """The repository's files copied into `into` (the card as README.md); their names."""
    from synth.io.card import CARD

    names = []
    for pattern in PUBLISHED:
        for path in sorted(output.glob(pattern)):
            shutil.copy2(path, into / path.name)
            names.append(path.name)
    shutil.copy2(output / CARD, into / "README.md")
    return names + ["README.md"]


def run(options) -> dict:
    import json
    import os

    args = options_from(PushOptions, options)
    output = Path(args.output)
    check_output(output)
    manifest = json.loads((output / "_manifest.json").read_text())
    audit = manifest.get("pii_audit") or {}
    print(
        f"personal-data audit: {audit.get('rows_with_findings', 'not run')} document(s) with "
        f"findings {audit.get('findings_per_type', {})}"
    )
    with tempfile.TemporaryDirectory(prefix="hrsynth-push-") as scratch:
        names = staged(output, Path(scratch))
        if args.to_folder:
            target = Path(args.to_folder)
            target.mkdir(parents=True, exist_ok=True)
            for name in names:
                shutil.copy2(Path(scratch, name), target / name)
            print(f"{len(names)} files written to {target} as repository {args.repo_id}")
            return {"repo_id": args.repo_id, "files": names, "where": str(target)}
        from huggingface_hub import HfApi

        api = HfApi(endpoint=args.endpoint, token=os.environ.get(args.token_env))
        api.create_repo(args.repo_id, repo_type="dataset", private=not args.public, exist_ok=True)
        commit = api.upload_folder(
            repo_id=args.repo_id,
            repo_type="dataset",
            folder_path=scratch,
            commit_message=f"hrsynth run {manifest.get('run_id')}",
        )
        print(f"{len(names)} files pushed to {args.repo_id}: {commit}")
        return {"repo_id": args.repo_id, "files": names, "where": str(commit)}


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "push", argv)


if __name__ == "__main__":
    sys.exit(main())
