"""Extracted CVs -> the private attribute table that `hrsynth fit` reads.

One row per CV: role; university_k / degree_k (k = 1..3, earliest first); company_k /
years_k (k = 1..3, in the CV's order); total_years; words (the CV's length). Empty slots hold NONE (names,
degrees) and 0 (years). Names seen fewer than `min_count` times in the corpus become
OTHER_UNIVERSITY / GENERIC_COMPANY (the CV paper's rule): rare names identify people.
"""

from collections import Counter

import pandas as pd

from synth.kinds.cvs.extract.attributes import GENERIC_COMPANY, Extracted

SLOTS = 3
NONE = "none"
OTHER_UNIVERSITY = "Other University"
UNIVERSITY_COLUMNS = [f"university_{k}" for k in range(1, SLOTS + 1)]
COMPANY_COLUMNS = [f"company_{k}" for k in range(1, SLOTS + 1)]


def columns() -> list[str]:
    out = ["role"]
    out += [c for k in range(1, SLOTS + 1) for c in (f"university_{k}", f"degree_{k}")]
    out += [c for k in range(1, SLOTS + 1) for c in (f"company_{k}", f"years_{k}")]
    return out + ["total_years", "words"]


def to_row(role: str, x: Extracted) -> dict:
    row = {"role": role, "total_years": x.total_years, "words": x.words}
    for k in range(SLOTS):
        name, degree = x.universities[k] if k < len(x.universities) else (NONE, NONE)
        company, years = x.companies[k] if k < len(x.companies) else (NONE, 0)
        row |= {
            f"university_{k + 1}": name,
            f"degree_{k + 1}": degree,
            f"company_{k + 1}": company,
            f"years_{k + 1}": years,
        }
    return row


def _replace_rare(frame: pd.DataFrame, cols: list[str], min_count: int, other: str) -> int:
    counts = Counter(v for c in cols for v in frame[c] if v != NONE)
    rare = {v for v, n in counts.items() if n < min_count}
    for c in cols:
        frame[c] = frame[c].where(~frame[c].isin(rare), other)
    return len(rare)


def build_table(rows: list[dict], min_count: int = 5) -> tuple[pd.DataFrame, dict]:
    """The table and aggregate counts about it (safe to print: no names, no rows)."""
    frame = pd.DataFrame(rows, columns=columns())
    stats = {
        "cvs": len(frame),
        "rare_universities": _replace_rare(frame, UNIVERSITY_COLUMNS, min_count, OTHER_UNIVERSITY),
        "rare_companies": _replace_rare(frame, COMPANY_COLUMNS, min_count, GENERIC_COMPANY),
        "with_university": int((frame["university_1"] != NONE).sum()),
        "with_company": int((frame["company_1"] != NONE).sum()),
    }
    return frame, stats
