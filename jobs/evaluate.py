"""Evaluate synthetic training data on a real labelled test set.

    python -m jobs.evaluate --train out/demo --test eval/data/dev_tickets.jsonl \
        --output out/eval [--private data.csv --schema schema.yaml] [--history hist.parquet]
    ray job submit --working-dir . -- python -m jobs.evaluate …   (same arguments)

Reads the synthetic Parquet with Ray Data, trains each task on it (the encoder tasks as
Ray Train TorchTrainer runs), tests on the real set and writes metrics.json (every
number, with the test set's hash and size and the training run's manifest), report.md
and PNG plots. With --private, also the privacy-leakage checks (eval/privacy.py); with
--history, one row per headline metric is appended to a Parquet table and the report
compares with the previous run of the same configuration.
"""

import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from jobs import eval_tasks
from jobs.entry import main_for
from jobs.eval_tasks import TaskContext, in_order, plotters, run_task
from jobs.on_ray.session import connect
from synth import ConfigError, RunFailed
from synth.config.evaluate_options import EvaluateOptions
from synth.config.options import options_from
from synth.kinds import kind


def _tasks(args: EvaluateOptions) -> list[str]:
    """The tasks to run, checked, in the order their needs set (jobs/eval_tasks.py)."""
    doc_kind, registered = kind(args.doc_type), eval_tasks.registered()
    known = list(doc_kind.EVAL_TASKS or registered)
    _check_presets(args.doc_type, doc_kind.FASTTEXT_PRESETS)
    entity_only = args.tasks is not None and [t.strip() for t in args.tasks.split(",")] == [
        "bio_ner"
    ]
    several = len(args.train) > 1 and not entity_only
    if not doc_kind.TRAIN_FROM_CORPORA and (several or args.mask_roles):
        raise ConfigError(
            f"one --train folder for --doc-type {args.doc_type}; several --train are for "
            "--tasks bio_ner alone (the detector's tickets and CVs) or for kinds trained on "
            "corpora too (--doc-type cv), and --mask-roles for those kinds"
        )
    if args.tasks is None:
        eval_tasks.check_chosen([])  # warns of broken installed tasks, which it leaves out
        known = [t for t in known if t in registered]
        return in_order([t for t in known if not registered[t].private or args.private])
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    eval_tasks.check_chosen(tasks)  # a broken one named: its one line
    unknown = [t for t in tasks if t not in known]
    if unknown or not tasks:
        raise ConfigError(
            f"--tasks: unknown task(s) {unknown or args.tasks!r} for "
            f"--doc-type {args.doc_type}; choose from {', '.join(known)}"
        )
    private = [t for t in tasks if registered[t].private]
    if private and not (args.private and args.schema):
        raise ConfigError(
            f"--tasks {private[0]} needs the private table and its schema: add "
            "--private CSV --schema YAML"
        )
    return in_order(tasks)


def _check_presets(doc_type: str, presets) -> None:
    """A kind's FASTTEXT_PRESETS name fastText settings evaluate has (not checked, a wrong
    one failed only once the fasttext task ran, after the encoder tasks)."""
    from eval.fasttext_task import PRESETS

    unknown = [p for p in presets if p not in PRESETS]
    if unknown or not presets:
        raise ConfigError(
            f"kind {doc_type!r}: FASTTEXT_PRESETS {list(presets)!r} names no fastText preset "
            f"evaluate has; use some of {sorted(PRESETS)} (docs/extending.md)"
        )


def _check_train_all(locations: list[str]) -> None:
    """Each --train source readable and named once: the same output under two spellings
    (`A` and `A/../A/`), or a copy of it (`cp -r A B`: the same run id in its run file,
    issue 94 EVM2), would train on each of its rows twice. Two runs of one config share
    a run id because they share their rows."""
    from synth.io.locations import canonical
    from synth.io.shards import read_run

    seen: dict[str, str] = {}
    for location in locations:
        _check_train(location)
        key = canonical(location).rstrip("/")
        if key in seen:
            raise ConfigError(
                f"--train {location}: the same output as --train {seen[key]}; give each "
                "output once (its rows would be trained on twice)"
            )
        seen[key] = location
        run = None if location.lower().endswith((".csv", ".jsonl", ".json")) else read_run(location)
        if run is None:
            continue
        if ("run", run["run_id"]) in seen:
            raise ConfigError(
                f"--train {location}: the same run (run id {run['run_id']}) as --train "
                f"{seen['run', run['run_id']]}, a copy of one output; give each run once "
                "(its rows would be trained on twice)"
            )
        seen["run", run["run_id"]] = location


def _check_train(location: str) -> None:
    from synth.io.storage import filesystem, join, list_names

    if location.lower().endswith((".csv", ".jsonl", ".json")):
        if not Path(location).is_file():
            raise ConfigError(f"--train {location}: file not found; check the path")
        return
    from synth.io.shards import data_folder, refuse_old_layout

    refuse_old_layout(location, "--train")
    fs, folder = filesystem(location)

    def parquet_in(where: str) -> list[str]:
        return [n for n in list_names(fs, where) if n.endswith(".parquet") and n[0] not in "_."]

    # a generate output's shards lie in data/; a folder of the user's Parquet files, in it
    where = data_folder(folder) if parquet_in(data_folder(folder)) else folder
    shards = parquet_in(where)
    if not shards:
        raise ConfigError(
            f"--train {location}: no Parquet shards there; run `hrsynth generate` into it first"
        )
    import pyarrow.parquet as pq

    with fs.open_input_file(join(where, shards[0])) as f:
        columns = set(pq.read_schema(f).names)
    missing = sorted({"text", "label", "entities"} - columns)
    if missing:
        made_by = " (a deidentify output)" if {"spans", "method"} <= columns else ""
        raise ConfigError(
            f"--train {location}: {shards[0]} has no {', '.join(missing)} column{made_by}; "
            "evaluate trains on `hrsynth generate` outputs"
        )


def _manifest(location: str) -> dict | None:
    """The generation run's manifest beside the shards, if any (none for a real corpus)."""
    from synth.io.storage import exists, filesystem, read_json

    if location.lower().endswith((".csv", ".jsonl", ".json")):
        return None
    from synth.io.layout import MANIFEST, kept

    fs, folder = filesystem(location)
    path = kept(folder, MANIFEST)
    return read_json(fs, path) if exists(fs, path) else None


def _read_train(location: str):
    """The shards as a Ray Dataset (local path or URI) and the run's manifest, if any. In a
    generate output, the run's own shards only (the footer and planned-id test generate
    uses): any other Parquet file there is left out, and named."""
    from jobs.on_ray.datasets import read_shards

    return read_shards(location, _own_shards(location)), _manifest(location)


def _own_shards(location: str) -> list[str] | None:
    """A generate output's own shard names (None: not a generate output, every Parquet
    file is read), each other Parquet file there printed as left out."""
    from synth.io.shards import read_run, sort_shards
    from synth.kinds import planned_shard_ids

    run = read_run(location)
    if run is None:
        return None
    own, other = sort_shards(location, planned_shard_ids(run), run["run_id"])
    for name, why in other.items():
        print(f"left out of training: {name} {why}")
    if not own:
        raise ConfigError(
            f"--train {location}: none of the Parquet files there is this run's own shard; "
            "train on a finished `hrsynth generate` output"
        )
    return own


def _load_private(args):
    """The private table and its schema, read before any training so a bad path fails fast."""
    from synth.dp.schema import encode, load_schema, read_private_table

    schema = load_schema(args.schema)
    private = read_private_table(args.private, schema.to_dict(), "--private")
    try:
        encode(private, schema, on_out_of_domain="clip")
    except ConfigError as e:
        raise ConfigError(f"--private {args.private}: {e}") from None
    return private, schema


def _shards_context(args, tasks: list[str]) -> dict:
    """One generated output to train on; labels and entity labels from the kind."""
    from eval.testset import load_testset

    labels, entity_labels = kind(args.doc_type).evaluation_labels()
    test = load_testset(args.test, labels, set(entity_labels))
    private = (
        _load_private(args) if any(eval_tasks.registered()[t].private for t in tasks) else None
    )
    _check_train_all(args.train)
    connect(log_to_driver=False)
    ds, manifest = _read_train(args.train[0])
    if len(args.train) > 1:  # --tasks bio_ner alone (_tasks): more rows, more entity types
        ds, more = _with_other_outputs(ds, args.train[1:])
        entity_labels = entity_labels + [x for x in more if x not in entity_labels]
    rows = ds.take_all()
    return {
        "ds": ds,
        "rows": rows,
        "manifest": manifest,
        "test": test,
        "labels": labels,
        "entity_labels": entity_labels,
        "private": private,
    }


def _with_other_outputs(ds, locations: list[str]):
    """The first output's rows and those of the other generate outputs (another kind: the
    CVs beside the detector's tickets), with the entity types of theirs that name personal
    data in any document (synth/data/deid/types.yaml's `cv_variables`)."""
    from synth.deid.types import personal_types

    for location in locations:
        ds = ds.union(_read_train(location)[0])
    return ds, sorted(personal_types().cv_variables)


def _corpora_context(args) -> dict:
    """Training rows from every --train source (masked on request), labels from both sides."""
    from eval.cv_data import mask_roles, read_sources
    from eval.testset import load_testset
    from jobs.on_ray.datasets import from_rows

    test = load_testset(args.test, None)
    _check_train_all(args.train)
    rows = read_sources(args.train)
    if args.mask_roles:
        texts, labels = [r["text"] for r in rows], [r["label"] for r in rows]
        masked = mask_roles(texts, labels, args.taxonomy_dir)
        rows = [{**r, "text": t} for r, t in zip(rows, masked)]
    manifest = _manifest(args.train[0])
    connect(log_to_driver=False)
    labels = sorted({r["label"] for r in rows} | {d.label for d in test.docs})
    return {
        "ds": from_rows(rows),
        "rows": rows,
        "manifest": manifest,
        "test": test,
        "labels": labels,
        "entity_labels": [],
        "private": None,
    }


def _random_baseline(tasks: list[str], ctx, args) -> dict:
    """Weighted/macro F1 over --permutations runs with the training labels shuffled."""
    import numpy as np

    from eval.cv_data import permuted
    from jobs.on_ray.datasets import from_rows

    out = {}
    for task in [t for t in tasks if t in ("classify", "fasttext")]:
        runs = []
        for k in range(args.permutations):
            labels = permuted(ctx.train_labels, args.seed + 1000 + k)
            rows = [{**r, "label": y} for r, y in zip(ctx.rows, labels)]
            shuffled = replace(
                ctx,
                train_labels=labels,
                rows=rows,
                ds=from_rows([{"text": r["text"], "label": r["label"]} for r in rows]),
                left=dict(ctx.left),
            )
            s = run_task(task, shuffled, args)
            runs.append({"weighted_f1": s["weighted_f1"], "macro_f1": s["macro_f1"]})
        w = np.array([r["weighted_f1"] for r in runs])
        out[task] = {
            "runs": len(runs),
            "weighted_f1_mean": float(w.mean()),
            "weighted_f1_sd": float(w.std(ddof=1)) if len(w) > 1 else 0.0,
            "macro_f1_mean": float(np.mean([r["macro_f1"] for r in runs])),
            "per_run": runs,
        }
        print(
            f"{task}: random baseline over {len(runs)} permutations: weighted F1 "
            f"{out[task]['weighted_f1_mean']:.3f} ± {out[task]['weighted_f1_sd']:.3f}",
            flush=True,
        )
    return out


OPTIONS = EvaluateOptions
NAMES = {"tasks": eval_tasks.help_names}  # the --tasks help lists the registered tasks


def _write_results(result: dict, out: Path, plots) -> None:
    from eval import report
    from synth.io.storage import write_json, write_text

    write_json(str(out / "metrics.json"), result)
    write_text(str(out / "report.md"), report.markdown(result, plots, result.get("history")))


def run(options) -> dict:
    """One evaluation, the output folder's lock held (one writer at a time)."""
    from synth.io.lock import output_lock

    args = options_from(EvaluateOptions, options)
    with output_lock(args.output, "evaluate"):
        return _evaluate(args)


def _evaluate(args) -> dict:
    from eval import report
    from eval.sinks import check_sinks, write_sinks
    from jobs.on_ray import train_checkpoints, training
    from synth import encoder
    from synth.io.versions import resolve

    args.train = [resolve(t) for t in args.train]  # a refresh root → its latest version
    tasks = _tasks(args)
    check_sinks(args.history, args.mlflow_uri)  # before the work, not after it
    corpora = kind(args.doc_type).TRAIN_FROM_CORPORA
    base = _corpora_context(args) if corpora else _shards_context(args, tasks)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    rows, test, manifest = base["rows"], base["test"], base["manifest"]
    texts = [d.text for d in test.docs]
    ctx = TaskContext(
        **base,
        train_texts=[r["text"] for r in rows],
        train_labels=[r["label"] for r in rows],
        texts=texts,
        gold=[d.label for d in test.docs],
        out=out,
        workers=args.num_workers,
        gpu=training.use_gpu(args.gpu),
        common={
            "encoder": encoder.resolve_encoder(args.base_model),
            "epochs": args.epochs,
            "lr": args.lr,
            "batch_size": args.batch_size,
            "seed": args.seed,
            "test_texts": texts,
            # which training an epoch checkpoint belongs to (a rerun resumes only its own)
            "data_digest": train_checkpoints.rows_digest(rows),
        },
    )
    absent = sorted(set(base["labels"]) - set(ctx.gold))
    if absent and {"classify", "fasttext"} & set(tasks):
        print(
            f"warning: the test set has no document of {', '.join(absent)}; macro and "
            "weighted F1 average over the labels it holds",
            file=sys.stderr,
        )
    result = {
        "test": {"path": test.path, "sha256": test.sha256, "documents": len(test.docs)},
        "train": {
            "path": ",".join(args.train),
            "documents": len(rows),
            "run_id": (manifest or {}).get("run_id"),
            "manifest": manifest,
        },
        "config": asdict(args) | {"tasks": ",".join(tasks)},
        "tasks": {},
    }
    failed = _run_tasks(tasks, ctx, args, result, out)
    if len(failed) == len(tasks):  # nothing finished: nothing to keep, the one line
        only = next(iter(failed.values()))
        raise only.error if len(tasks) == 1 else _ending(failed)(_failures(failed, tasks))
    if args.permutations:
        result["random_baseline"] = _random_baseline(tasks, ctx, args)
    plots = report.write_plots(
        result, out, plotters([t for t in result["tasks"] if t not in failed])
    )
    _write_results(result, out, plots)  # first: a sink that fails takes nothing with it
    if args.history or args.mlflow_uri:
        write_sinks(result, args.history, args.mlflow_uri, args.tolerance)
        _write_results(result, out, plots)  # with the comparison and run id
    flagged = [
        f"{r['task']} {r['metric']}"
        for r in result.get("history", {}).get("rows", [])
        if r["flagged"]
    ]
    if flagged:
        print(f"worse than the previous run by more than {args.tolerance}: {', '.join(flagged)}")
    print(f"metrics, report and {len(plots)} plots written to {out}")
    if failed:
        kept = f"; the other tasks' scores are in {out / 'metrics.json'} and its report"
        raise _ending(failed)(_failures(failed, tasks) + kept)
    return result


@dataclass
class Failure:
    """A task that failed: its one line, as the error to end the run with: a
    ConfigError (exit 2) where a plugin or the input is at fault, RunFailed (exit 1)
    where the run itself failed."""

    line: str
    error: Exception


def _ending(failed: dict) -> type:
    """Exit 2 when every failure is a plugin's or the input's, else 1."""
    return (
        ConfigError if all(isinstance(f.error, ConfigError) for f in failed.values()) else RunFailed
    )


def _failures(failed: dict, tasks: list[str]) -> str:
    named = "; ".join(f"{task}: {f.line}" for task, f in failed.items())
    return f"{len(failed)} of {len(tasks)} tasks failed ({named})"


def _run_tasks(tasks: list[str], ctx, args, result: dict, out: Path) -> dict[str, Failure]:
    """Each task in turn, the results written to metrics.json and the report as each
    ends once one has finished, so a task that fails (or a run stopped later) keeps what
    finished. A failing task is an error row in the report, its traceback in a log file;
    a task needing what a failed one would have left fails too. Returns the failures."""
    from synth.plugins import failure_line

    failed: dict[str, Failure] = {}
    registered = eval_tasks.registered()
    for task in tasks:
        started = time.perf_counter()
        missing = [n for n in registered[task].needs if n in _left_by(failed, registered)]
        try:
            if missing:
                raise ConfigError(f"needs {', '.join(missing)}, which a failed task leaves")
            scores = run_task(task, ctx, args)
        except Exception as e:  # noqa: BLE001 (a task may raise anything; the others stay)
            line = failure_line(e, f"task {task!r}")
            own = isinstance(e, ConfigError)
            failed[task] = Failure(line, ConfigError(line) if own else RunFailed(line))
            scores = {"error": line, "summary": {"rows": [("error", line)], "headline": []}}
        scores["wall_s"] = time.perf_counter() - started
        result["tasks"][task] = scores
        if len(failed) < len(result["tasks"]):  # something finished: keep it
            _write_results(result, out, [])
        done = "failed" if task in failed else "done"
        print(f"{task}: {done} in {scores['wall_s']:.1f} s", flush=True)
    return failed


def _left_by(failed: dict, registered: dict) -> set[str]:
    return {what for task in failed for what in registered[task].leaves}


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "evaluate", argv)


if __name__ == "__main__":
    sys.exit(main())
