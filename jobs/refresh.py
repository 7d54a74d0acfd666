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

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

import pyarrow.fs as pafs

from jobs import evaluate, fit, generate
from jobs.entry import main_for, run_job
from synth import ConfigError
from synth.dp import account as privacy_account
from synth.io import versions
from synth.io.storage import filesystem, join, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default="configs/tickets.yaml", help="generation config")
    p.add_argument("--output-root", required=True, help="folder or URI holding the versions")
    p.add_argument("--test", required=True, help="real labelled test set for the evaluation")
    p.add_argument("--tasks", default="classify,fasttext,intrinsic")
    p.add_argument("--num-docs", type=int)
    p.add_argument(
        "--seed",
        type=int,
        help="default: drawn from the version's time, so each "
        "refresh samples new documents; recorded in the manifest either way",
    )
    p.add_argument("--fit-data", help="private table: refit the DP model in this refresh")
    p.add_argument("--fit-schema", help="its public schema (YAML), with --fit-data")
    p.add_argument("--epsilon", type=float, help="privacy budget of the refit, with --fit-data")
    p.add_argument(
        "--total-budget",
        type=float,
        help="cap on the ε all refits into this root may spend together (the "
        "account is ROOT/privacy_account.json); a refit over it is refused",
    )
    p.add_argument("--dp-model", help="an existing DP model file, instead of refitting")
    p.add_argument("--model", help="generation model (Hugging Face id, folder, .gguf)")
    p.add_argument("--num-actors", type=int)
    p.add_argument("--batch-size", type=int)
    p.add_argument("--device", choices=["auto", "cpu", "cuda"])
    p.add_argument(
        "--gpu", choices=["auto", "yes", "no"], default="auto", help="evaluation training on GPU"
    )
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--keep", type=int, default=5, help="successful versions to keep")


def _check(args: argparse.Namespace) -> None:
    fitting = [args.fit_data, args.fit_schema, args.epsilon]
    if any(x is not None for x in fitting) and not all(x is not None for x in fitting):
        raise ConfigError("refitting needs all of --fit-data, --fit-schema and --epsilon")
    if args.fit_data and args.dp_model:
        raise ConfigError("give --fit-data (refit) or --dp-model (reuse), not both")
    if args.total_budget is not None and not args.fit_data:
        raise ConfigError("--total-budget caps refits: give it with --fit-data")
    if args.keep < 1:
        raise ConfigError(f"--keep must be ≥ 1, got {args.keep}")
    if not Path(args.test).is_file():
        raise ConfigError(f"--test {args.test}: file not found; check the path")


def _optional(flag: str, value) -> list:
    return [] if value is None else [flag, value]


def _steps(args, stage: Path, root: str, status: dict) -> None:
    """fit → generate → evaluate into the staging folder, recording each step."""
    dp_model = args.dp_model
    if args.fit_data:
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
        run_job(
            fit,
            "fit",
            [
                "--data",
                args.fit_data,
                "--schema",
                args.fit_schema,
                "--epsilon",
                args.epsilon,
                "--output",
                dp_model,
                *_optional("--seed", args.seed),
            ],
        )
        status["steps"].append(
            {
                "step": "fit",
                "at": time.time(),
                "epsilon": args.epsilon,
                "epsilon_all_refits": account["spent"],
            }
        )
    manifest = run_job(
        generate,
        "generate",
        [
            "--config",
            args.config,
            "--output",
            stage / "data",
            *_optional("--dp-model", dp_model),
            *_optional("--num-docs", args.num_docs),
            *_optional("--seed", args.seed),
            *_optional("--model", args.model),
            *_optional("--num-actors", args.num_actors),
            *_optional("--batch-size", args.batch_size),
            *_optional("--device", args.device),
        ],
    )
    status["steps"].append(
        {
            "step": "generate",
            "at": time.time(),
            "rows": manifest["rows"],
            "epsilon_spent": {k: v["spent"] for k, v in manifest["epsilon_ledgers"].items()},
        }
    )
    result = run_job(
        evaluate,
        "evaluate",
        [
            "--train",
            stage / "data",
            "--test",
            args.test,
            "--output",
            stage / "eval",
            "--tasks",
            args.tasks,
            "--gpu",
            args.gpu,
            "--epochs",
            args.epochs,
            "--history",
            join(root, "history.parquet"),
            *_optional("--seed", args.seed),
        ],
    )
    from eval.history import headline

    status["steps"].append(
        {
            "step": "evaluate",
            "at": time.time(),
            "metrics": {f"{t} {m}": v for t, m, v, _ in headline(result)},
        }
    )


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


def run(args: argparse.Namespace) -> dict:
    _check(args)
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
            _steps(args, stage, root, status)
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
    deleted = versions.prune(root, args.keep)
    print(f"refresh: latest → {version}; deleted {deleted or 'no old versions'}", flush=True)
    return {**pointer, "deleted": deleted}


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "refresh", argv)


if __name__ == "__main__":
    sys.exit(main())
