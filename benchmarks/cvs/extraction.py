"""CV extraction precision/recall on our hand-labelled CVs; prints a table, writes JSON.

    python -m benchmarks.cvs.extraction   (make bench runs it)

Three files: cvs_small.jsonl (30 CVs, written while the rules were developed: an upper
bound), cvs_heldout.jsonl (10 CVs written after, never used to change the rules) and
cvs_layouts.jsonl (32 CVs in other layouts: anonymised job-board, Europass, one-line and
pipe histories; written before the rules for them, which then targeted the failure kinds
a user reported, and were fixed while looking at these CVs: a development set) and
cvs_layouts_heldout.jsonl (10 CVs in those layouts, written after those rules were
frozen). cvs_flat.jsonl (31 IT CVs written as one flat block, the way job-board CVs
are scraped: headings inline, "Title Employer - City, ST Month YYYY to Present" jobs;
written before the flat-text rules, which were developed on them) and
cvs_flat_heldout.jsonl (10 more, written after those rules were frozen).
"""

import time

from benchmarks.report import RESULTS_DIR, ROOT, write_results
from eval.extraction import read_labelled, score
from synth.nlp import load_nlp

DATA = ROOT / "tests" / "data"
SETS = {
    "development (30 CVs)": "cvs_small.jsonl",
    "held out (10 CVs)": "cvs_heldout.jsonl",
    "other layouts (32 CVs)": "cvs_layouts.jsonl",
    "other layouts, held out (10 CVs)": "cvs_layouts_heldout.jsonl",
    "flat text (31 CVs)": "cvs_flat.jsonl",
    "flat text, held out (10 CVs)": "cvs_flat_heldout.jsonl",
}
RESULTS = RESULTS_DIR / "extraction.json"


def main() -> None:
    nlp = load_nlp()
    results = {}
    for name, file in SETS.items():
        started = time.perf_counter()
        results[name] = score(read_labelled(DATA / file), nlp, as_of=2024)
        results[name]["seconds"] = round(time.perf_counter() - started, 2)
    keys = ("university", "university_degree", "company", "company_years")
    print(f"{'set':<34}" + "".join(f"{k:>22}" for k in keys) + f"{'total exact / ±1':>20}")
    for name, r in results.items():
        cells = "".join(f"{r[k]['precision']:>10.2f} P {r[k]['recall']:.2f} R" for k in keys)
        t = r["total_years"]
        print(f"{name:<34}{cells}{t['exact']:>12.2f} / {t['within_one_year']:.2f}")
    write_results(RESULTS.name, results, indent=1)
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
