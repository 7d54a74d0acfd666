"""Training data for the CV role-classification experiment.

Training sources mix freely: synthetic Parquet folders (generate's output) and real CV
corpora (CSV or JSONL, read like `hrsynth extract` reads them), so "real", "synthetic"
and "real + synthetic" are the same call with different --train lists. Two ablations:
role mentions masked in the training text (the CV paper's 'worker'), and labels
permuted (the empirical random baseline).
"""

import functools
import re

import numpy as np

from synth.docs.cvs.sections import load_templates

MASK = "worker"


def read_sources(locations: list[str]) -> list[dict]:
    """{'text', 'label'} rows from every source, in order."""
    import pyarrow.parquet as pq

    from synth.docs.cvs.extract.corpus import read_corpus
    from synth.io.storage import filesystem

    rows = []
    for location in locations:
        if location.lower().endswith((".csv", ".jsonl", ".json")):
            rows += [{"text": cv.text, "label": cv.role} for cv in read_corpus(location)]
            continue
        fs, folder = filesystem(location)
        table = pq.read_table(folder, filesystem=fs, columns=["text", "label"])
        rows += table.to_pylist()
    return rows


@functools.cache
def _mask_pattern(roles: tuple[str, ...], taxonomy_dir: str | None) -> re.Pattern:
    templates = load_templates(taxonomy_dir)
    phrases = {p for r in roles for p in (r, templates.title(r))}
    alternatives = sorted((re.escape(p) for p in phrases if p.strip()), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")s?(?!\w)", re.IGNORECASE)


def mask_roles(texts: list[str], roles: list[str], taxonomy_dir: str | None = None) -> list[str]:
    """Every mention of a role label or its job title becomes 'worker'. The titles are
    those generation used: roles.yaml of `taxonomy_dir` (default: the embedded one)."""
    pattern = _mask_pattern(tuple(sorted(set(roles))), taxonomy_dir)
    return [pattern.sub(MASK, t) for t in texts]


def permuted(labels: list[str], seed: int) -> list[str]:
    return [labels[i] for i in np.random.default_rng(seed).permutation(len(labels))]
