"""Refresh a dataset: (fit), generate a new version, evaluate it, then move `latest`.

    python -m jobs.refresh --config configs/tickets.yaml --output-root s3://bucket/tickets \
        --test /data/test/tickets.jsonl [--fit-data absences.csv --fit-schema SCHEMA \
        --epsilon 1 | --dp-model model.json] [--num-docs 2000] [--keep 5]

Made for schedules (cluster/kuberay/cronjobs.yaml). Each run gets its own folder,
ROOT/v=<UTC time>/ (layout in synth/io/versions.py): `model.json` when it fitted, `data/`
from the generate job, `eval/` from the evaluate job, whose headline metrics are appended
to ROOT/history.parquet. Only when every step succeeded is `latest.json` moved to the new
version, and versions older than the --keep newest good ones are deleted. Every refit is
charged to ROOT/privacy_account.json first (synth/dp/account.py) and refused when it
would take the root over --total-budget. A failed step
marks the version `failed`, leaves what it finished in place and leaves `latest` where it
was; the error is raised as usual.

The jobs write to local disk, so for a URI root (s3://, gs://, file://, …) the version is
built in a local staging folder and copied up (pyarrow filesystems) before the pointer
moves; a plain local path is built in place.
"""

import sys
import tempfile
import time
import traceback
from pathlib import Path

import pyarrow.fs as pafs

from jobs import evaluate, fit, generate
from jobs.entry import main_for
from synth.config.evaluate_options import EvaluateOptions, RefreshOptions
from synth.config.generate_options import GenerateOptions
from synth.config.options import options_from
from synth.config.private_options import FitOptions
from synth.dp import account as privacy_account
from synth.io import versions
from synth.io.storage import filesystem, join, write_json
from synth.kinds.card import write_card


def _given(**values) -> dict:
    """The values that are set: unset ones keep the called job's defaults."""
    return {k: v for k, v in values.items() if v is not None}


def _steps(args, stage: Path, root: str, status: dict) -> dict:
    """fit → generate → evaluate into the staging folder, recording each step; returns
    the version's card (manifest, scores, test set), rewritten with the scores."""
    dp_model = _refit(args, stage, root, status) if args.fit_data else args.dp_model
    manifest = generate.run(
        GenerateOptions(
            config=args.config,
            output=str(stage / "data"),
            dp_model=None if dp_model is None else str(dp_model),
            num_docs=args.num_docs,
            seed=args.seed,
            model=args.model,
            num_actors=args.num_actors,
            batch_size=args.batch_size,
            device=args.device,
        )
    )
    status["steps"].append(
        {
            "step": "generate",
            "at": time.time(),
            "rows": manifest["rows"],
            "epsilon_spent": {k: v["spent"] for k, v in manifest["epsilon_ledgers"].items()},
        }
    )
    result = evaluate.run(
        EvaluateOptions(
            train=[str(stage / "data")],
            test=args.test,
            output=str(stage / "eval"),
            tasks=args.tasks,
            gpu=args.gpu,
            epochs=args.epochs,
            history=join(root, "history.parquet"),
            **_given(seed=args.seed),
        )
    )
    from eval.history import headline

    status["steps"].append(
        {
            "step": "evaluate",
            "at": time.time(),
            "metrics": {f"{t} {m}": v for t, m, v, _ in headline(result)},
        }
    )
    card = {
        "manifest": manifest,
        "scores": [(t, m, v) for t, m, v, _ in headline(result)],
        "test": result["test"],
    }
    write_card(str(stage / "data"), **card)
    return card


def _refit(args, stage: Path, root: str, status: dict) -> Path:
    """The refit step: the ε charged to the root's account first (refused beyond
    --total-budget), then fit into the staging folder; the model's path."""
    dp_model = stage / "model.json"
    account = privacy_account.charge(
        root, status["version"], args.epsilon, args.fit_data, args.total_budget
    )
    print(
        f"refresh: ε spent on the private data by this root's refits: "
        f"{account['spent']:g}"
        + (
            f" of {args.total_budget:g}"
            if args.total_budget is not None
            else " (no --total-budget)"
        ),
        flush=True,
    )
    fit.run(
        FitOptions(
            data=args.fit_data,
            schema=args.fit_schema,
            epsilon=args.epsilon,
            output=str(dp_model),
            **_given(seed=args.seed),
        )
    )
    status["steps"].append(
        {
            "step": "fit",
            "at": time.time(),
            "epsilon": args.epsilon,
            "epsilon_all_refits": account["spent"],
        }
    )
    return dp_model


def _publish(stage: Path, root: str, version: str) -> None:
    """Copy a staged version to a URI root (plain local roots are built in place)."""
    if "://" not in root:
        return
    fs, folder = filesystem(root)
    pafs.copy_files(
        str(stage),
        join(folder, version),
        source_filesystem=pafs.LocalFileSystem(),
        destination_filesystem=fs,
    )


OPTIONS = RefreshOptions


def run(options) -> dict:
    args = options_from(RefreshOptions, options)
    root = args.output_root
    fs, folder = filesystem(root)
    fs.create_dir(folder, recursive=True)
    if args.fit_data:  # refused before a version folder exists
        privacy_account.check(privacy_account.read_account(root), args.epsilon, args.total_budget)
    version = versions.new_version()
    if args.seed is None:  # a new sample per refresh, still reproducible from the manifest
        args.seed = int("".join(c for c in version if c.isdigit())) % 2**31
    with tempfile.TemporaryDirectory(prefix="hrsynth-refresh-") as scratch:
        stage = Path(scratch, version) if "://" in root else Path(folder, version)
        stage.mkdir(parents=True)
        status = {
            "version": version,
            "status": "running",
            "started": time.time(),
            "config": args.config,
            "seed": args.seed,
            "steps": [],
        }
        print(f"refresh: building {join(root, version)}", flush=True)
        try:
            card = _steps(args, stage, root, status)
        except BaseException as error:
            status.update(
                status="failed",
                error=f"{type(error).__name__}: {error}",
                failed_at=time.time(),
                traceback=traceback.format_exc(limit=5),
            )
            write_json(stage / versions.STATUS, status)
            _publish(stage, root, version)
            print(
                f"refresh failed; latest still names "
                f"{(versions.read_latest(root) or {}).get('version')}",
                file=sys.stderr,
            )
            raise
        status.update(status="succeeded", finished=time.time())
        write_json(stage / versions.STATUS, status)
        _publish(stage, root, version)
    pointer = {
        "version": version,
        "data": f"{version}/data",
        "updated_at": status["finished"],
        "steps": status["steps"],
    }
    versions.move_latest(root, pointer)
    # the root's card: `load_dataset(ROOT)` reads the latest version's documents
    write_card(root, **card, prefix=f"{version}/data/")
    deleted = versions.prune(root, args.keep)
    print(f"refresh: latest → {version}; deleted {deleted or 'no old versions'}", flush=True)
    return {**pointer, "deleted": deleted}


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "refresh", argv)


if __name__ == "__main__":
    sys.exit(main())
