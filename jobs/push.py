"""Publish a generate output as a dataset repository on a Hub-compatible endpoint.

    hrsynth push --output out/demo --repo-id my-team/hr-tickets [--endpoint URL] [--public]
    hrsynth push --output out/demo --repo-id my-team/hr-tickets --to-folder /mirror/hr-tickets

Uploads the run's own shards (refused in one line when any other Parquet file lies among
them), the DP samples, the manifest, `.huggingface.yaml` and the card
(`_README.md`, published as the repository's README.md) with `huggingface_hub`; nothing
else in the folder (the run file, stray files) goes. The token is read from the variable
--token-env names, never from the command line. The personal-data audit's counts are
printed first: a run with findings under policy `flag` is published as it is, with the
count in its card.
"""

import shutil
import sys
from pathlib import Path

from jobs.entry import main_for
from synth import ConfigError
from synth.config.generate_options import PushOptions
from synth.config.options import options_from
from synth.io.layout import CARD, CARD_METADATA, DP_SAMPLES, MANIFEST, RUN_FILE, kept

OPTIONS = PushOptions
# Published beside the run's own shards (own_shards), under these names.
PUBLISHED = (DP_SAMPLES, MANIFEST, CARD_METADATA)


def check_output(output: Path) -> None:
    if not Path(kept(output, MANIFEST)).is_file() or not Path(kept(output, CARD)).is_file():
        raise ConfigError(
            f"--output {output}: no {MANIFEST} and {CARD} there; push a finished "
            "`hrsynth generate` output (this version writes both)"
        )


def own_shards(output: Path) -> list[str]:
    """The run's own shards, by the footer and planned-id test generate uses; refused in
    one line when any other Parquet file (a private table, another run's shard, a copy
    edited elsewhere) or a folder lies among them, or when one of the run's is missing."""
    from synth.io.shards import DATA, read_run, shard_name, sort_shards
    from synth.kinds import planned_shard_ids, shard_count

    run = read_run(output)
    if run is None:
        raise ConfigError(
            f"--output {output}: no {RUN_FILE} there; push a finished `hrsynth generate` output"
        )
    own, other = sort_shards(output, planned_shard_ids(run), run["run_id"])
    if other:
        name, why = next(iter(other.items()))
        more = f" (and {len(other) - 1} more)" if len(other) > 1 else ""
        raise ConfigError(
            f"--output {output}: {name} {why}{more}; push publishes the run's own shards "
            "only: move it out of the folder, nothing was published"
        )
    config = run["config"]
    expected = shard_count(int(config["num_docs"]), int(config["shard_size"]))
    missing = [n for s in range(expected) if (n := f"{DATA}/{shard_name(s)}") not in own]
    if missing:
        raise ConfigError(
            f"--output {output}: {missing[0]} of the run's {expected} shards is missing; "
            "rerun the same `hrsynth generate` to write it, then push"
        )
    return own


def published(output: Path) -> dict[str, Path]:
    """The repository's files: name in the repository -> the file in `output` (the card,
    `_README.md`, is the repository's README.md): the run's own shards and the files
    PUBLISHED names beside them."""
    files = {name: output / name for name in own_shards(output)}
    files |= {name: Path(kept(output, name)) for name in PUBLISHED}
    files = {name: path for name, path in files.items() if path.is_file()}
    return files | {"README.md": Path(kept(output, CARD))}


def check_hub(endpoint: str | None, token_env: str) -> None:
    """Offline mode, the token and the endpoint, each one line, before anything is read
    for upload (huggingface_hub ends each in a 34-71-line trace)."""
    import os

    import requests

    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        raise ConfigError(
            "HF_HUB_OFFLINE is set (make demo and the tests set it): unset it for this "
            "command to push, or write a local copy with --to-folder"
        )
    token = os.environ.get(token_env)
    if not token:
        raise ConfigError(
            f"--token-env: the variable {token_env} is not set; export a write token in it "
            "(never on the command line), or write a local copy with --to-folder"
        )
    url = (endpoint or os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")
    try:
        reply = requests.get(
            f"{url}/api/whoami-v2", headers={"Authorization": f"Bearer {token}"}, timeout=10
        )
    except requests.RequestException as e:
        raise ConfigError(
            f"--endpoint {url} cannot be reached ({type(e).__name__}); check the address "
            "and the network, or write a local copy with --to-folder"
        ) from None
    if reply.status_code in (401, 403):
        raise ConfigError(
            f"{url} does not accept the token in {token_env} (HTTP {reply.status_code}); "
            "give a write token"
        )


def run(options) -> dict:
    import json
    import os

    args = options_from(PushOptions, options)
    output = Path(args.output)
    check_output(output)
    files = published(output)
    manifest = json.loads(Path(kept(output, MANIFEST)).read_text())
    audit = manifest.get("pii_audit") or {}
    print(
        f"personal-data audit: {audit.get('rows_with_findings', 'not run')} document(s) with "
        f"findings {audit.get('findings_per_type', {})}"
    )
    names = list(files)
    if args.to_folder:
        target = Path(args.to_folder)
        target.mkdir(parents=True, exist_ok=True)
        for name, path in files.items():
            (target / name).parent.mkdir(parents=True, exist_ok=True)  # data/
            shutil.copy2(path, target / name)
        print(f"{len(names)} files written to {target} as repository {args.repo_id}")
        return {"repo_id": args.repo_id, "files": names, "where": str(target)}
    from huggingface_hub import CommitOperationAdd, HfApi

    check_hub(args.endpoint, args.token_env)
    api = HfApi(endpoint=args.endpoint, token=os.environ[args.token_env])
    api.create_repo(args.repo_id, repo_type="dataset", private=not args.public, exist_ok=True)
    commit = api.create_commit(
        repo_id=args.repo_id,
        repo_type="dataset",
        operations=[CommitOperationAdd(name, str(path)) for name, path in files.items()],
        commit_message=f"hrsynth run {manifest.get('run_id')}",
    )
    print(f"{len(names)} files pushed to {args.repo_id}: {commit}")
    return {"repo_id": args.repo_id, "files": names, "where": str(commit)}


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "push", argv)


if __name__ == "__main__":
    sys.exit(main())
