"""Precision and recall of CV attribute extraction against hand labels.

Micro-averaged over all CVs, on multisets (a university named twice, for two degrees,
counts twice): names alone, and names with their degree or years. Total years: share
exactly right, and within one year.
"""

import json
from collections import Counter
from pathlib import Path

from eval.metrics import prf
from synth.kinds.cvs.extract.attributes import extract
from synth.kinds.cvs.extract.corpus import clean_text


def read_labelled(path: str | Path) -> list[dict]:
    return [
        json.loads(line)
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def score(records: list[dict], nlp, as_of: int) -> dict:
    counts = {k: [0, 0, 0] for k in ("university", "university_degree", "company", "company_years")}
    exact = within_one = 0
    for r in records:
        x, g = extract(clean_text(r["text"]), nlp, as_of), r["gold"]
        pairs = {
            "university": ([u for u, _ in x.universities], [u for u, _ in g["universities"]]),
            "university_degree": (x.universities, [tuple(u) for u in g["universities"]]),
            "company": ([c for c, _ in x.companies], [c for c, _ in g["companies"]]),
            "company_years": (x.companies, [tuple(c) for c in g["companies"]]),
        }
        for key, (pred, gold) in pairs.items():
            tp = sum((Counter(pred) & Counter(gold)).values())
            counts[key] = [
                counts[key][0] + tp,
                counts[key][1] + len(pred),
                counts[key][2] + len(gold),
            ]
        exact += x.total_years == g["total_years"]
        within_one += abs(x.total_years - g["total_years"]) <= 1
    n = len(records)
    return {
        "cvs": n,
        **{k: prf(tp, pred, tp, gold) for k, (tp, pred, gold) in counts.items()},
        "total_years": {"exact": exact / n, "within_one_year": within_one / n},
    }
