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

from synth.kinds.cvs.sections import load_templates

MASK = "worker"


def read_sources(locations: list[str]) -> list[dict]:
    """{'text', 'label'} rows from every source, in order."""
    import pyarrow.parquet as pq

    from synth.io.storage import filesystem
    from synth.kinds.cvs.extract.corpus import read_corpus

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
    alternatives = sorted((_loose(p) for p in phrases if p.strip()), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")\w*", re.IGNORECASE)


def _loose(phrase: str) -> str:
    """A title's words joined by any run of spaces or hyphens, or none ("site engineer",
    "Site-Engineer", "SiteEngineer")."""
    return r"[\s\-]*".join(re.escape(word) for word in re.split(r"[\s\-]+", phrase.strip()))


def mask_roles(texts: list[str], roles: list[str], taxonomy_dir: str | None = None) -> list[str]:
    """Every mention of a role label or its job title becomes 'worker'. The titles are
    those generation used: roles.yaml of `taxonomy_dir` (default: the embedded one).
    Inflected and compound forms are role cues too, so a mention is the title's words
    starting a word and whatever word characters follow: "site engineering", "Java
    Developers", "site-engineer's" all go; "website engineer" is not a mention."""
    pattern = _mask_pattern(tuple(sorted(set(roles))), taxonomy_dir)
    return [pattern.sub(MASK, t) for t in texts]


def permuted(labels: list[str], seed: int) -> list[str]:
    return [labels[i] for i in np.random.default_rng(seed).permutation(len(labels))]
