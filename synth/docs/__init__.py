"""Document kinds: each kind is a package here, and KINDS is the one place that names them.

A kind module gives what the rest of hrsynth asks of a kind (see DocKind): planning a
run's documents (with the entity label each planted variable gets), the entities its rows declare,
its own config and row rules, and how evaluate trains and tests on it. Adding a kind is
one folder and one line in KINDS; nothing else branches on `doc_type`.
"""

import importlib
from types import ModuleType
from typing import Protocol

import numpy as np

from synth import ConfigError

KINDS = {"ticket": "synth.docs.tickets", "cv": "synth.docs.cvs"}


class DocKind(Protocol):
    EVAL_TASKS: tuple[str, ...] | None  # the evaluate tasks that apply to it (None: all)
    FASTTEXT_PRESETS: tuple[str, ...]  # eval.fasttext_task.PRESETS; several: chosen on validation
    # Training may mix generated outputs with real corpora (CSV/JSONL), role-masked on request.
    TRAIN_FROM_CORPORA: bool

    def plan_documents(self, cfg, run_id: str) -> tuple[list, dict]:
        """Every PlannedDocument of the run in index order, and notes for the manifest."""

    def check_config(self, cfg) -> None:
        """Raise ConfigError for settings this kind cannot take."""

    def declared_entities(self, docs: list, cfg) -> dict[str, set[str]]:
        """{label: entity types its documents are meant to carry}, for the coverage."""

    def check_row(self, row: dict) -> list[str]:
        """This kind's contract rules for one output row (labels, categories)."""

    def evaluation_labels(self) -> tuple[list[str] | None, list[str]]:
        """The test set's allowed labels (None: taken from the data) and entity labels."""


def kind(name: str) -> ModuleType:
    """The module of document kind `name` (a config's doc_type)."""
    if name not in KINDS:
        raise ConfigError(f"doc_type {name!r} unknown; use one of {sorted(KINDS)}")
    return importlib.import_module(KINDS[name])


def check_row(row: dict) -> list[str]:
    """One output row against the contract and its kind's own rules (empty when valid)."""
    from synth import contract

    return contract.check_row(row) + kind(row["doc_type"]).check_row(row)


def plan_documents(cfg, run_id: str) -> tuple[list, dict]:
    """The run's planned documents (synth.record.PlannedDocument) and manifest notes."""
    return kind(cfg.doc_type).plan_documents(cfg, run_id)


def balanced_labels(labels: list, n: int, rng: np.random.Generator) -> np.ndarray:
    """n labels, each of `labels` n / len(labels) times (±1), in a seeded random order."""
    per_doc = np.array([labels[i % len(labels)] for i in range(n)], dtype=object)
    rng.shuffle(per_doc)
    return per_doc
