"""A document kind's contract, declared once: `KindBase` gives every member a kind may
leave at its default, and the checks here refuse, in one line naming the kind, what the
rest of hrsynth would otherwise trip over later (in an actor, in the report, in the
card): a member missing or of the wrong type, a planned document missing a field.

A kind is either a module with every member of `synth.kinds.DocKind` (the built-in
ones), or a `KindBase` subclass an entry point names as `module:Class` (what
docs/extending.md teaches): it sets `TITLE` and writes `planner`, and inherits the rest.
"""

from dataclasses import fields
from typing import get_type_hints

from synth import DATA_DIR, ConfigError

FIX = "docs/extending.md lists what a kind gives"


def card_text(name: str) -> str:
    """A kind's card opening, prose kept as data in synth/data/card/."""
    return (DATA_DIR / "card" / name).read_text(encoding="utf-8").strip()


class KindBase:
    """What a kind that declares no more has. Required: `TITLE` and `planner`."""

    TITLE: str  # what the documents are called in the card's title ('memos')
    CARD_TASKS: tuple[str, ...] = ("text-generation",)
    # The card's opening: what the documents are and where their values come from.
    CARD_TEXT: str = card_text("documents.md")
    EVAL_TASKS: tuple[str, ...] | None = None  # every task
    FASTTEXT_PRESETS: tuple[str, ...] = ("THESIS",)
    TRAIN_FROM_CORPORA: bool = False
    SECTION: str | None = None
    SETTINGS: type | None = None

    def planner(self, cfg, run_id: str):
        raise NotImplementedError

    def check_config(self, cfg) -> None:
        return None

    def declared_entities(self, labels, cfg) -> dict[str, set[str]]:
        return {label: set() for label in labels}

    def check_row(self, row: dict) -> list[str]:
        return []

    def evaluation_labels(self) -> tuple[list[str] | None, list[str]]:
        return None, []


def made(found, what: str):
    """A loaded kind as the rest of hrsynth uses it: a module as it is, a KindBase
    subclass made into its instance, its members checked."""
    if isinstance(found, type):
        if not issubclass(found, KindBase):
            raise ConfigError(f"{what} is a class but not a synth.kinds.base.KindBase; {FIX}")
        if not hasattr(found, "TITLE") or found.planner is KindBase.planner:
            raise ConfigError(f"{what} lacks TITLE or planner (KindBase has neither); {FIX}")
        found = found()
    check_members(found, what)
    return found


def check_members(found, what: str) -> None:
    """The members' types: what a wrong value would break far from here (the fastText
    preset names are evaluate's: jobs/evaluate.py checks them)."""
    wrong = []
    if not isinstance(found.TITLE, str) or not found.TITLE.strip():
        wrong.append("TITLE (a non-empty string)")
    for member in ("CARD_TASKS", "FASTTEXT_PRESETS"):
        value = getattr(found, member)
        if not isinstance(value, (tuple, list)) or not all(isinstance(v, str) for v in value):
            wrong.append(f"{member} (a tuple of strings)")
    if found.EVAL_TASKS is not None and not isinstance(found.EVAL_TASKS, (tuple, list)):
        wrong.append("EVAL_TASKS (None or a tuple of task names)")
    if not isinstance(found.TRAIN_FROM_CORPORA, bool):
        wrong.append("TRAIN_FROM_CORPORA (True or False)")
    if (found.SECTION is None) != (found.SETTINGS is None):
        wrong.append("SECTION and SETTINGS (both None, or a name and a dataclass)")
    for member in (
        "planner",
        "check_config",
        "declared_entities",
        "check_row",
        "evaluation_labels",
    ):
        if not callable(getattr(found, member)):
            wrong.append(f"{member} (a function)")
    if wrong:
        raise ConfigError(f"{what}: wrong {'; '.join(wrong)}; {FIX}")


def checked_plan(plan, kind_name: str, run_id: str, shard: int, expected_ids: list[str]):
    """A shard's plan, checked where it enters: a ShardPlan of PlannedDocuments, one per
    document the shard holds, in order, each field of its declared type. A wrong document
    would otherwise fail in the renderer, in an actor, or land as a wrong row."""
    from synth.kinds.shards import ShardPlan
    from synth.record import PlannedDocument

    def refuse(problem: str):
        raise ConfigError(
            f"kind {kind_name!r} planned shard {shard} wrongly: {problem}; fix its "
            f"planner (docs/extending.md)"
        )

    if not isinstance(plan, ShardPlan):
        refuse(f"plan_shard returned {type(plan).__name__}, not a synth.kinds.ShardPlan")
    if problem := _counts_problem(plan.counts, "counts"):
        refuse(problem)
    docs = plan.docs
    if not isinstance(docs, list) or len(docs) != len(expected_ids):
        size = len(docs) if isinstance(docs, list) else type(docs).__name__
        refuse(f"{size} documents for a shard of {len(expected_ids)}")
    for doc, expected in zip(docs, expected_ids):
        if not isinstance(doc, PlannedDocument):
            refuse(f"a {type(doc).__name__} among the documents, not a PlannedDocument")
        problem = _field_problem(doc, kind_name, run_id, shard)
        if problem:
            refuse(f"document {getattr(doc, 'index', '?')}: {problem}")
        if doc.id != expected:
            refuse(f"document {doc.id} where {expected} belongs (index: the run's position)")
    return plan


def _counts_problem(counts, where: str) -> str | None:
    """Why `counts` is not what the manifest sums (synth.kinds.sum_counts): a dict of
    names to whole numbers or to such dicts. A string among them passed before and
    failed the run after its shards were written, building the manifest (issue 72)."""
    if not isinstance(counts, dict):
        return f"{where} is {type(counts).__name__}, not a dict of counts"
    for key, value in counts.items():
        if not isinstance(key, str):
            return f"{where} has the key {key!r}, not a name"
        if isinstance(value, dict):
            if problem := _counts_problem(value, f"{where}[{key!r}]"):
                return problem
        elif not isinstance(value, int) or isinstance(value, bool):
            return f"{where}[{key!r}] is {type(value).__name__} {value!r:.40}, not a whole number"
    return None


def _field_problem(doc, kind_name: str, run_id: str, shard: int) -> str | None:
    """What is wrong with one planned document, or None. Total: a document missing a
    field (made without its constructor, or one deleted) is a problem named, not an
    AttributeError from inside the check (issue 73)."""
    hints = get_type_hints(type(doc))
    for f in fields(doc):
        if not hasattr(doc, f.name):
            return f"{f.name} is missing (make documents with PlannedDocument(...))"
        value, hint = getattr(doc, f.name), hints[f.name]
        if not _fits(value, hint):
            return f"{f.name} is {type(value).__name__} {value!r:.60}, not {hint}"
    if not doc.pieces:
        return "pieces is empty (it holds the text around the slots: slots + 1 pieces)"
    if (doc.run_id, doc.doc_type, doc.shard) != (run_id, kind_name, shard):
        return (
            f"run_id, doc_type, shard are {doc.run_id!r}, {doc.doc_type!r}, {doc.shard}, "
            f"not {run_id!r}, {kind_name!r}, {shard}"
        )
    return None


def _fits(value, hint) -> bool:
    """`value` against a PlannedDocument annotation: str, int, float, bool, list[str],
    dict[str, str], or one of those or None."""
    import typing

    args = typing.get_args(hint)
    if type(None) in args:
        return value is None or _fits(value, next(a for a in args if a is not type(None)))
    origin = typing.get_origin(hint)
    if origin is list:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        )
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


class CheckedPlanner:
    """A kind's planner whose every shard plan is checked where it enters (checked_plan):
    what generate hands its actors, so a kind's wrong document is one line naming the
    kind, in whichever process planned it."""

    def __init__(self, planner, kind_name: str, run_id: str, num_docs: int, shard_size: int):
        self.planner, self.kind_name, self.run_id = planner, kind_name, run_id
        self.num_docs, self.shard_size = num_docs, shard_size

    @property
    def notes(self) -> dict:
        return self.planner.notes

    def plan_shard(self, shard: int):
        from synth.kinds.shards import shard_ids

        ids = shard_ids(self.run_id, self.num_docs, self.shard_size, shard) or []
        plan = self.planner.plan_shard(shard)
        return checked_plan(plan, self.kind_name, self.run_id, shard, ids)
