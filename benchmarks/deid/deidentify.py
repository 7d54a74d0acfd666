"""De-identification measured: method × detector on test sets with gold personal data.

Sets (say which kind beside every number):
- synthetic: held-out hrsynth tickets (an output folder not used to train the NER model);
  gold = every planted variable of a personal-data type and every occurrence of the
  persona's name, e-mail, company (synth.deid.gold). Written by a model from values we
  planted: it flatters detectors tuned to our vocabulary (the HR recognizers' lists, the
  NER model trained on the same generator).
- dev: eval/data/dev_tickets.jsonl, 40 tickets written by us; gold = the annotated
  variables of personal-data types (locations, dates, money, health, …) and the
  `personal` spans (each ticket's signed name).
- dev_cvs: eval/data/dev_cvs.jsonl, 12 short CVs written by us (4 roles x 3); gold = their
  `personal` spans: names, e-mails, phones, addresses and cities, employers and schools,
  dates, URLs (job titles are the role, not marked).

For each detector: detection P/R/F1 (exact and overlap); for each method × detector:
privacy score (mean, 5th percentile), BERTScore F1 and embedding cosine to the original,
utility macro-F1 (5-fold) and its drop from the raw text (eval/deid.py says how).

    python -m benchmarks.deid.deidentify --synthetic OUT_DIR --ner-model OUT/models/bio_ner \\
        [--max-docs 400]

Prints a table and writes benchmarks/results/deidentify.json. The library functions run
in-process (the job's actor pool adds nothing to quality).
"""

import argparse
import json
import time
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.report import RESULTS_DIR, ROOT, print_table, write_results
from eval.deid import deid_scores
from synth.deid.gold import annotated_spans, planted_spans

RESULTS = RESULTS_DIR / "deidentify.json"
DEV = ROOT / "eval" / "data" / "dev_tickets.jsonl"
DEV_CVS = DEV.with_name("dev_cvs.jsonl")


def synthetic_set(folder: str, max_docs: int) -> dict:
    rows = pq.read_table(folder).sort_by("id").to_pylist()
    rows = [r for r in rows if r["text"].strip()][:max_docs]  # flagged free-form rows: empty
    return {
        "ids": [r["id"] for r in rows],
        "texts": [r["text"] for r in rows],
        "labels": [r["label"] for r in rows],
        "gold": [planted_spans(r["text"], r["entities"], r["persona"]) for r in rows],
    }


def dev_set(path: Path = DEV) -> dict:
    """A hand-labelled set: the dev tickets, or the dev CVs."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {
        "ids": [str(i) for i in range(len(rows))],
        "texts": [r["text"] for r in rows],
        "labels": [r["label"] for r in rows],
        "gold": [annotated_spans(r["entities"], r.get("personal", [])) for r in rows],
    }


def measure(name: str, docs: dict, ner_model: str, seed: int) -> dict:
    result = deid_scores(docs, ner_model, seed)
    print(f"{name}: done", flush=True)
    return result


def method_row(m: dict) -> dict:
    """One method's scores as a table row (deidentify_llm prints the same columns)."""
    return {
        "privacy": m["privacy"]["mean"],
        "p5": m["privacy"]["p5"],
        "bertscore": m["bertscore_f1"],
        "cosine": m["embedding_cosine"],
        "utility": m["utility"]["macro_f1"],
        "drop": m["utility_drop"],
    }


METHOD_COLUMNS = [
    ("privacy", "privacy", ".3f"),
    ("p5", "p5", ".3f"),
    ("bertscore", "BERTScore", ".3f"),
    ("cosine", "cosine", ".3f"),
    ("utility", "utility", ".3f"),
    ("drop", "drop", ".3f"),
]


def print_results(results: dict) -> None:
    rows = [
        {
            "set": set_name,
            "detector": combo,
            "method": method,
            "f1": entry["detection"]["all"]["overlap"]["f1"],
        }
        | method_row(m)
        for set_name, r in results["sets"].items()
        for combo, entry in r["detectors"].items()
        for method, m in entry["methods"].items()
    ]
    head = [("set", "set", ""), ("detector", "detector", ""), ("method", "method", "")]
    print_table(rows, [*head, ("f1", "detection F1 (overlap)", ".3f"), *METHOD_COLUMNS])
    for set_name, r in results["sets"].items():
        print(f"{set_name}: raw text utility macro-F1 {r['raw_utility']['macro_f1']:.3f}")
        print(f"{set_name}: overlap recall on quasi-identifiers: {r['quasi_recall']}")


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--synthetic", required=True, help="held-out hrsynth output folder")
    p.add_argument("--ner-model", required=True, help="evaluate's OUTPUT/models/bio_ner")
    p.add_argument("--max-docs", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    started = time.time()
    results = {
        "synthetic_folder": args.synthetic,
        "ner_model": args.ner_model,
        "sets": {
            "synthetic": measure(
                "synthetic", synthetic_set(args.synthetic, args.max_docs), args.ner_model, args.seed
            ),
            "dev": measure("dev", dev_set(), args.ner_model, args.seed),
            "dev_cvs": measure("dev_cvs", dev_set(DEV_CVS), args.ner_model, args.seed),
        },
    }
    results["wall_s"] = round(time.time() - started, 1)
    write_results(RESULTS.name, results, indent=2)
    print_results(results)
    return results


if __name__ == "__main__":
    main()
