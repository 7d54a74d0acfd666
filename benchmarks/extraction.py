"""CV extraction precision/recall on our hand-labelled CVs; prints a table, writes JSON.

    python -m benchmarks.extraction   (make bench runs it)

Two files: cvs_small.jsonl (30 CVs, written while the rules were developed: an upper
bound) and cvs_heldout.jsonl (10 CVs written after, never used to change the rules).
"""

import json
import time
from pathlib import Path

from eval.extraction import read_labelled, score
from synth.nlp import load_nlp

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = {"development (30 CVs)": "cvs_small.jsonl", "held out (10 CVs)": "cvs_heldout.jsonl"}
RESULTS = Path(__file__).resolve().parent / "results" / "extraction.json"


def main() -> None:
    nlp = load_nlp()
    results = {}
    for name, file in SETS.items():
        started = time.perf_counter()
        results[name] = score(read_labelled(DATA / file), nlp, as_of=2024)
        results[name]["seconds"] = round(time.perf_counter() - started, 2)
    keys = ("university", "university_degree", "company", "company_years")
    print(f"{'set':<22}" + "".join(f"{k:>22}" for k in keys) + f"{'total exact / ±1':>20}")
    for name, r in results.items():
        cells = "".join(f"{r[k]['precision']:>10.2f} P {r[k]['recall']:.2f} R" for k in keys)
        t = r["total_years"]
        print(f"{name:<22}{cells}{t['exact']:>12.2f} / {t['within_one_year']:.2f}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1))
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
