"""Document kinds: each kind is a package here, and KINDS is the one place that names them
(with the kinds installed packages register: synth/plugins.py).

A kind module gives what the rest of hrsynth asks of a kind (see DocKind): a planner that
plans a run's documents shard by shard (with the entity label each planted variable gets),
the entities its rows declare,
its own config and row rules, and how evaluate trains and tests on it. Adding a kind is
one folder and one line in KINDS; nothing else branches on `doc_type`.
"""

from types import ModuleType
from typing import Protocol

import numpy as np

from synth import ConfigError, plugins
from synth.kinds.base import KindBase, made
from synth.kinds.shards import ShardPlan, shard_count, shard_ids, shard_rows  # noqa: F401

KINDS = {"ticket": "synth.kinds.tickets", "cv": "synth.kinds.cvs"}


class DocKind(Protocol):
    TITLE: str  # what the documents are called in a card's title ('tickets', 'CVs')
    # Hugging Face task categories of a card; token-classification where rows carry spans
    CARD_TASKS: tuple[str, ...]
    EVAL_TASKS: tuple[str, ...] | None  # the evaluate tasks that apply to it (None: all)
    FASTTEXT_PRESETS: tuple[str, ...]  # eval.fasttext_task.PRESETS; several: chosen on validation
    # Training may mix generated outputs with real corpora (CSV/JSONL), role-masked on request.
    TRAIN_FROM_CORPORA: bool
    # Its own config section and the dataclass of its settings (None: it has none); each
    # setting is an `option` (synth.typed), and its `check()` refuses what a type cannot.
    SECTION: str | None
    SETTINGS: type | None

    def planner(self, cfg, run_id: str) -> "Planner":
        """The run's planner: settings checked and data files loaded once, on the driver."""

    def check_config(self, cfg) -> None:
        """Raise ConfigError for settings this kind cannot take."""

    def declared_entities(self, labels, cfg) -> dict[str, set[str]]:
        """{label: entity types its documents are meant to carry}, for the coverage
        (`labels`: the labels the output holds)."""

    def check_row(self, row: dict) -> list[str]:
        """This kind's contract rules for one output row (labels, categories)."""

    def evaluation_labels(self) -> tuple[list[str] | None, list[str]]:
        """The test set's allowed labels (None: taken from the data) and entity labels."""


# What every kind module gives: DocKind's attributes and functions.
SURFACE = (*DocKind.__annotations__, *(n for n in vars(DocKind) if not n.startswith("_")))


# Planning shard by shard (per-shard random streams) replaced planning the whole run at
# once in version 2: the same seed plans other documents, so it is in the fingerprint.
PLANNER_VERSION = 2
# A kind whose planning changed since: the same seed plans other documents of it, so
# its outputs of before are refused on resume, the others' not. cv 3: a CV's role words
# (skills, duties, languages) and fallback lines are drawn too (issue 81).
KIND_PLANNER_VERSIONS = {"cv": 3}


def planner_version(doc_type: str) -> int:
    return KIND_PLANNER_VERSIONS.get(doc_type, PLANNER_VERSION)


class Planner(Protocol):
    """Plans any shard on its own, deterministic from the seed and the shard number, so
    the driver holds no document: actors plan the shards they write, and a resumed run
    plans the same documents."""

    # The run's notes for the manifest: `dp_models` ({model file: its ε ledger}; absent: no
    # DP model was sampled), and what the kind reports (cv_roles, writing).
    notes: dict

    def plan_shard(self, shard: int) -> ShardPlan: ...


def planned_shard_ids(run: dict):
    """shard -> its ids (None: beyond the plan) for the generate run whose record
    (`_run.json`) is `run`: what `push` and `evaluate` check a folder's shards against."""
    config = run["config"]
    num_docs, shard_size = int(config["num_docs"]), int(config["shard_size"])
    return lambda shard: shard_ids(run["run_id"], num_docs, shard_size, shard)


def shard_streams(seed: int, shard: int, count: int) -> list[np.random.Generator]:
    """`count` independent random streams of one shard (stream k: [seed, k, shard])."""
    return [np.random.default_rng([seed, k, shard]) for k in range(count)]


def registered() -> dict[str, str]:
    """{doc_type: its module}: KINDS, then the installed packages' `hrsynth.kinds`."""
    return plugins.registry("kinds", KINDS)


def names() -> list[str]:
    """Every doc_type."""
    return sorted(registered())


def help_names() -> list[str]:
    """Every doc_type for --help, a broken installed one marked (never fails)."""
    return sorted(plugins.help_names("kinds", KINDS, kind))


def check_chosen(chosen: str | None) -> None:
    """The kind a run names loaded and checked, every other broken installed one a
    warning line (synth/plugins.py)."""
    plugins.check_chosen("kinds", KINDS, kind, [chosen] if chosen else [])


def kind(name: str) -> "ModuleType | KindBase":
    """Document kind `name` (a config's doc_type): its module, or its KindBase subclass
    made into an instance, its members checked (synth.kinds.base)."""
    found = registered()
    if name not in found:
        raise ConfigError(f"doc_type {name!r} unknown; use one of {sorted(found)}")
    plugins.refuse_clash("kinds", KINDS, name)
    target = found[name]
    surface = () if ":" in target else SURFACE  # a class inherits KindBase's defaults
    loaded = plugins.load("kinds", name, target, surface)
    with plugins.calling(plugins.seam("kinds", name), "making the kind"):
        return plugins.guard(made(loaded, f"kind {name!r} ({target})"), "kinds", name)


def check_row(row: dict) -> list[str]:
    """One output row against the contract and its kind's own rules (empty when valid)."""
    from synth import contract

    return contract.check_row(row) + kind(row["doc_type"]).check_row(row)


def planner(cfg, run_id: str) -> Planner:
    return kind(cfg.run.doc_type).planner(cfg, run_id)


def plan_documents(cfg, run_id: str) -> tuple[list, dict]:
    """Every planned document of a run (synth.record.PlannedDocument) and its notes, with
    the shards' counts merged and the DP samples joined (`dp_samples`): for notebooks,
    tests and small runs; generate plans shard by shard instead."""
    import pandas as pd

    run = planner(cfg, run_id)
    plans = [run.plan_shard(s) for s in range(shard_count(cfg.run.num_docs, cfg.run.shard_size))]
    samples = [p.dp_samples for p in plans if p.dp_samples is not None]
    notes = with_counts(run.notes, sum_counts([p.counts for p in plans]))
    notes["dp_samples"] = pd.concat(samples, ignore_index=True) if samples else None
    return [d for p in plans for d in p.docs], notes


def with_counts(notes: dict, counts: dict) -> dict:
    """The run's notes with the shards' summed counts added (a section both have, such
    as cv_roles, holds the keys of both)."""
    merged = dict(notes)
    for key, value in counts.items():
        both = isinstance(value, dict) and isinstance(notes.get(key), dict)
        merged[key] = {**notes[key], **value} if both else value
    return merged


def sum_counts(parts: list[dict]) -> dict:
    """Nested counts ({name: int | {…}}) summed key by key, keys sorted."""
    total: dict = {}
    for part in parts:
        for key, value in part.items():
            if isinstance(value, dict):
                total[key] = sum_counts([total.get(key, {}), value])
            else:
                total[key] = total.get(key, 0) + value
    return dict(sorted(total.items()))


def balanced_labels(labels: list, n: int, rng: np.random.Generator, start: int = 0) -> np.ndarray:
    """n labels in a seeded random order: the run's documents start..start+n-1 take
    labels in turn, so over consecutive shards each label comes n / len(labels) times (±1)."""
    per_doc = np.array([labels[(start + i) % len(labels)] for i in range(n)], dtype=object)
    rng.shuffle(per_doc)
    return per_doc
