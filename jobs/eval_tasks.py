"""The evaluation tasks `hrsynth evaluate` runs, as a registry: each task declares what it
needs from the run's context, what it leaves there for later tasks, and whether it reads
the private table. `evaluate` orders them by those declarations; a document kind names
the tasks that apply to it (DocKind.EVAL_TASKS, None: all of them).

A task is `run(ctx, args) -> (scores, left)`: `ctx` is a TaskContext, the training rows
and their Ray Dataset, the test set, labels and training settings (jobs/evaluate.py
builds it); `left` holds exactly the keys the task declares in `leaves`, which later
tasks read from `ctx.left`. It also names how its
scores read (`summary`, eval.summaries: report rows and headline metrics) and the plots
it draws, so report, history and sinks never ask which task they hold. A new task is a
function here (or in any module) and one entry in TASKS.
"""

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from eval import summaries
from synth import ConfigError, plugins
from synth.kinds import kind


@dataclass
class TaskContext:
    """What every task may read: the training rows (and their Ray Dataset), the test set,
    the labels, where to write, the training settings, and what earlier tasks left."""

    rows: list[dict]  # the training rows (text, label, entities, ...)
    ds: object  # the same rows as a Ray Dataset, for Ray Train
    test: object  # eval.testset.TestSet: the real labelled documents
    labels: list[str]  # every label of the training rows
    entity_labels: list[str]  # every entity type of the training rows
    manifest: dict | None  # the training output's manifest (None: a corpus)
    private: tuple | None  # (the private table, its schema) when --private is given
    train_texts: list[str]
    train_labels: list[str]
    texts: list[str]  # the test documents' texts
    gold: list[str]  # the test documents' labels
    out: Path  # the evaluation's output folder
    workers: int  # Ray Train workers
    gpu: bool  # one GPU per worker
    common: dict  # the encoder tasks' training settings (encoder, epochs, lr, batch_size, seed)
    left: dict = field(default_factory=dict)  # what tasks declared in `leaves`, by name


@dataclass(frozen=True)
class Task:
    name: str
    run: Callable[[TaskContext, object], tuple[dict, dict]]
    needs: tuple[str, ...] = ()  # what it reads, when there, that another task leaves
    leaves: tuple[str, ...] = ()  # what it leaves in the context for later tasks
    private: bool = False  # reads the private table (--private and --schema)
    summary: Callable[[dict], dict] = summaries.classification  # its report rows and headline
    plots: Callable | None = None  # (scores, task, out folder) -> file names written


def _report(name: str) -> Callable:
    """A plots function of eval.report, imported (with matplotlib) when a report is drawn."""
    return lambda s, task, out: getattr(importlib.import_module("eval.report"), name)(s, task, out)


def classify(ctx: TaskContext, args) -> tuple[dict, dict]:
    from eval import metrics
    from jobs.on_ray import training

    m, predicted = training.fit(
        "classify", ctx.ds, {**ctx.common, "labels": ctx.labels}, *_fit_args(ctx)
    )
    return {**metrics.classification(ctx.gold, predicted, ctx.labels), "training": m}, {}


def fasttext(ctx: TaskContext, args) -> tuple[dict, dict]:
    from eval import fasttext_task, metrics

    predicted, used = fasttext_task.train_chosen_and_predict(
        ctx.train_texts,
        ctx.train_labels,
        ctx.texts,
        kind(args.doc_type).FASTTEXT_PRESETS,
        args.seed,
        [r.get("template_id") for r in ctx.rows],
    )
    scores = metrics.classification(ctx.gold, predicted, ctx.labels)
    return {**scores, "hyperparameters": used}, {}


def bio_ner(ctx: TaskContext, args) -> tuple[dict, dict]:
    from jobs.on_ray import training
    from synth import encoder
    from synth.deid.analyzer.kind_tags import kind_tags

    tags = ["O"] + [f"{p}-{e}" for e in ctx.entity_labels for p in "BI"]
    config = {**ctx.common, "tags": tags}
    if mixes_kinds(args.doc_type, ctx.entity_labels):
        config["kind_tags"] = kind_tags(tags)
    m, predicted = training.fit("bio_ner", ctx.ds, config, *_fit_args(ctx))
    tokenizer = encoder.load_tokenizer(ctx.common["encoder"])
    texts = [d.text for d in ctx.test.docs]
    gold = [encoder.word_tags(tokenizer, d.text, d.entities) for d in ctx.test.docs]
    left = {"ner_model": str(ctx.out / "models" / "bio_ner")}
    scores = bio_scoring(args.doc_type)(texts, gold, predicted)
    return {**scores, "training": m}, left


def mixes_kinds(doc_type: str, entity_labels: list[str]) -> bool:
    """Whether a BIO model learns tickets and CVs together (the detector build: ticket
    variables and CV entities), and so gets labels per kind."""
    from synth.deid.types import personal_types

    return doc_type == "ticket" and bool(personal_types().cv_variables & set(entity_labels))


def bio_scoring(doc_type: str) -> Callable:
    """How BIO NER is scored on a kind's test set: tickets through the de-identification
    detector's output steps (eval.detector_scores), any other kind by plain entity F1.
    Evaluation holds this choice, so the library never names eval/."""
    from eval import detector_scores, metrics

    return {"ticket": detector_scores.ticket_bio_scores}.get(doc_type, metrics.bio_scores)


def cls_entity_ner(ctx: TaskContext, args) -> tuple[dict, dict]:
    """Candidates and their gold labels on both sides, then the Ray Train fit."""
    from eval import cls_entity, intrinsic
    from jobs.on_ray import training
    from jobs.on_ray.datasets import from_rows

    nlp = intrinsic.load_nlp()
    rows, test = ctx.rows, ctx.test
    train_rows, classes = [], {cls_entity.NONE}
    for r, found in zip(rows, cls_entity.candidates(nlp, ctx.train_texts)):
        spans = [(e["start"], e["end"], e["label"]) for e in r["entities"]]
        for c in found:
            label = cls_entity.gold_label(c, r["label"], spans)
            classes.add(label)
            train_rows.append({"text": r["text"], "start": c[0], "end": c[1], "label": label})
    items, truth, missed = [], [], 0
    for d, found in zip(test.docs, cls_entity.candidates(nlp, ctx.texts)):
        missed += cls_entity.missed(found, d.entities)
        for c in found:
            items.append((d.text, c[0], c[1]))
            truth.append(cls_entity.gold_label(c, d.label, d.entities))
    m, predicted = training.fit(
        "cls_entity",
        from_rows(train_rows),
        {**ctx.common, "labels": sorted(classes), "test_candidates": items},
        *_fit_args(ctx),
    )
    return {**cls_entity.scores(truth, predicted, missed), "training": m}, {}


def intrinsic_metrics(ctx: TaskContext, args) -> tuple[dict, dict]:
    from eval import intrinsic

    return {
        "synthetic": intrinsic.intrinsic(ctx.train_texts, ctx.train_labels),
        "real": intrinsic.intrinsic(ctx.texts, ctx.gold),
    }, {}


def privacy(ctx: TaskContext, args) -> tuple[dict, dict]:
    """The DP samples against the private table, leakage of its values into the text, and
    the generate actors' personal-data audit."""
    import pyarrow.parquet as pq

    from eval.privacy import privacy_checks
    from synth.io.layout import kept
    from synth.io.storage import filesystem

    private, schema = ctx.private
    manifest = ctx.manifest or {}
    samples_file = manifest.get("dp_samples")
    fs, folder = filesystem(args.train[0])
    samples = (
        pq.read_table(kept(folder, samples_file), filesystem=fs).to_pandas()
        if samples_file
        else None
    )
    ledgers = manifest.get("epsilon_ledgers") or {}
    holdout = next(iter(ledgers.values()), {}).get("holdout")
    result = privacy_checks(private, schema, samples, holdout, ctx.train_texts, args.seed)
    # what the generate actors' personal-data audit found that hrsynth did not plant
    if manifest.get("pii_audit_settings"):
        result["pii_audit"] = {
            **manifest["pii_audit"],
            "policy": manifest["pii_audit_settings"]["policy"],
            "rows": manifest["rows"],
        }
    return result, {}


def deid(ctx: TaskContext, args) -> tuple[dict, dict]:
    """De-identification of the real test set (gold: its entities of personal-data types
    and its `personal` spans), with the BIO model bio_ner left, when it ran."""
    from eval.deid import deid_scores
    from synth.deid.gold import annotated_spans

    docs = ctx.test.docs
    test = {
        "ids": [str(i) for i in range(len(docs))],
        "texts": [d.text for d in docs],
        "labels": [d.label for d in docs],
        "gold": [annotated_spans(d.entities, d.personal) for d in docs],
    }
    return deid_scores(test, ctx.left.get("ner_model"), args.seed), {}


def _fit_args(ctx: TaskContext) -> tuple:
    return ctx.out, ctx.workers, ctx.gpu


TASKS = {
    t.name: t
    for t in (
        Task("classify", classify, plots=_report("classification_plots")),
        Task(
            "bio_ner",
            bio_ner,
            leaves=("ner_model",),
            summary=summaries.entities,
            plots=_report("entity_plots"),
        ),
        Task("cls_entity_ner", cls_entity_ner, summary=summaries.candidates),
        Task("fasttext", fasttext, plots=_report("classification_plots")),
        Task(
            "intrinsic",
            intrinsic_metrics,
            summary=summaries.intrinsic,
            plots=_report("intrinsic_plots"),
        ),
        Task("privacy", privacy, private=True, summary=summaries.privacy),
        Task(
            "deid",
            deid,
            needs=("ner_model",),
            summary=summaries.deid,
            plots=_report("deid_plots"),
        ),
    )
}


def registered() -> dict[str, Task]:
    """TASKS and the tasks installed packages register (`hrsynth.tasks`, a `module:TASK`
    entry point; synth/plugins.py)."""
    usable = {}
    for name, task in plugins.registry("tasks", TASKS).items():
        if isinstance(task, str):
            try:
                task = installed_task(name)
            except ConfigError:  # broken: a warning line, refused only when named (check_chosen)
                continue
        usable[name] = task
    return usable


def check_chosen(chosen: list[str]) -> None:
    """The tasks a run names loaded and checked, every other broken installed one a
    warning line (synth/plugins.py)."""
    plugins.check_chosen("tasks", TASKS, installed_task, chosen)


def installed_task(name: str) -> Task:
    """The Task an installed package registers as `name`, checked: a Task of that name
    whose run and summary are functions (plots may be None: it draws nothing)."""
    target = plugins.installed("tasks")[name]
    task = plugins.load("tasks", name, target)
    if not isinstance(task, Task) or task.name != name or not callable(task.run):
        what = f"a Task named {task.name!r}" if isinstance(task, Task) else type(task).__name__
        raise ConfigError(
            f"task {name!r} ({target}) is {what}; the entry point names a "
            f"jobs.eval_tasks.Task({name!r}, run, summary=…), docs/extending.md"
        )
    if not callable(task.summary) or not (task.plots is None or callable(task.plots)):
        raise ConfigError(
            f"task {name!r} ({target}): summary must be a function and plots a function or "
            "None (docs/extending.md)"
        )
    return plugins.guard(task, "tasks", name)  # its run, summary and plots: the seam


def names() -> list[str]:
    """Every task --tasks may name."""
    return list(registered())


def help_names() -> list[str]:
    """Every --tasks name for --help, a broken installed one marked (never fails)."""
    return plugins.help_names("tasks", TASKS, installed_task)


def in_order(names: list[str]) -> list[str]:
    """The tasks in their given order, except that a task runs after every task that leaves
    something it needs."""
    ordered, todo, tasks = [], list(names), registered()
    while todo:
        ready = next(
            n
            for n in todo
            if not any(
                set(tasks[n].needs) & set(tasks[other].leaves) for other in todo if other != n
            )
        )
        ordered.append(ready)
        todo.remove(ready)
    return ordered


def run_task(name: str, ctx: TaskContext, args) -> dict:
    """One task's scores; what it leaves goes into `ctx`, checked against its declaration."""
    task = registered()[name]
    returned = task.run(ctx, args)
    shaped = isinstance(returned, tuple) and len(returned) == 2
    scores, left = returned if shaped else (None, None)
    if not (isinstance(scores, dict) and isinstance(left, dict)):
        raise ConfigError(
            f"task {name}'s run returned {str(returned)[:80]!r}; it must return (scores, "
            "left): two dicts (docs/extending.md)"
        )
    if set(left) != set(task.leaves):
        raise ConfigError(
            f"task {name} left {sorted(left)} but declares leaves={list(task.leaves)}; "
            "make them agree (docs/extending.md)"
        )
    ctx.left.update(left)
    return {**scores, "summary": checked_summary(name, task.summary(scores))}


def checked_summary(task: str, found) -> dict:
    """A task's summary, checked where it enters (the report, the history and the sinks
    read it): `rows` of (label, value), `headline` of (metric, number, higher is better);
    eval.summaries.summary(rows, headline) makes one."""
    try:
        rows, headline = found["rows"], found["headline"]
        shaped = all(len(r) == 2 and isinstance(r[0], str) for r in rows) and all(
            len(h) == 3
            and isinstance(h[0], str)
            and isinstance(h[2], bool)
            and (h[1] is None or isinstance(h[1], (int, float)) and not isinstance(h[1], bool))
            for h in headline
        )
    except (TypeError, KeyError, IndexError):
        shaped = False
    if not shaped:
        raise ConfigError(
            f"task {task}'s summary returned {str(found)[:80]!r}; it must return "
            "eval.summaries.summary(rows=[(label, value)], headline=[(metric, number, "
            "higher_is_better)]) (docs/extending.md)"
        )
    return found


def plotters(names) -> dict:
    """Each task's plots function, for eval.report.write_plots."""
    tasks = registered()
    return {name: tasks[name].plots for name in names if name in tasks}
