"""How varied the descriptive values are: the planted value of each clause type, over many
planned tickets (planning only: no model writes anything, the values are the
templates').

Per type (complaint, to_who, reason_of_change, reason, description_life_event, and the
work_title and location phrases): values planted, distinct values, distinct word 3-grams
per 1,000 values, and the mean nearest-neighbour similarity of distinct values (for each
distinct value, the highest Jaccard similarity of its word 3-grams with any other
distinct value of its type; 1.0: every value shares all its 3-grams with another).
Synthetic values only: ours to quote.

    python -m benchmarks.text.clause_diversity --step "clause grammars" [--tickets 8000]

`--step` names the row; run it once on the code before a change (PYTHONPATH at that
checkout) and once after. Adds the row to benchmarks/results/clause_diversity.json.
"""

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from benchmarks.report import RESULTS_DIR, write_results

RESULTS = RESULTS_DIR / "clause_diversity.json"
TYPES = (
    "complaint",
    "to_who",
    "reason_of_change",
    "reason",
    "description_life_event",
    "work_title",
    "location",
)
SAMPLE = 1000  # values per type the 3-gram and neighbour figures are computed on


def trigrams(text: str) -> set[tuple[str, ...]]:
    words = ["<s>", *text.lower().split(), "</s>"]
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}


def diversity(values: list[str], rng: np.random.Generator) -> dict:
    picked = [values[i] for i in rng.permutation(len(values))[:SAMPLE]]
    grams = [trigrams(v) for v in picked]
    distinct_grams = set().union(*grams) if grams else set()
    unique = sorted(set(picked))
    sets = [trigrams(v) for v in unique]
    nearest = []
    for i, a in enumerate(sets):
        best = max((len(a & b) / len(a | b) for j, b in enumerate(sets) if j != i), default=0.0)
        nearest.append(best)
    return {
        "values": len(values),
        "distinct_values": len(set(values)),
        "trigrams_per_1000_values": round(len(distinct_grams) * 1000 / max(len(picked), 1), 1),
        "nearest_neighbour_similarity": round(float(np.mean(nearest)), 3) if nearest else None,
        "mean_words": round(float(np.mean([len(v.split()) for v in values])), 2),
    }


def planted_values(tickets: int, seed: int, dp_model: str | None) -> dict[str, list[str]]:
    from synth.config.generate import load_config
    from synth.kinds import plan_documents

    overrides = {"num_docs": tickets, "seed": seed, "reference_date": "2026-11-24"}
    cfg = load_config("configs/tickets.yaml", overrides)
    if dp_model:
        cfg = cfg.updated(dp_model=dp_model)
    docs, _ = plan_documents(cfg, "diversity")
    out = defaultdict(list)
    for doc in docs:
        for name, text in doc.surface.items():
            if name in TYPES:
                out[name].append(text)
    return out


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--step", required=True, help="name of this row (the code measured)")
    p.add_argument("--tickets", type=int, default=8000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dp-model", default="out/absence_model.json", help="for health tickets")
    args = p.parse_args(argv)
    started = time.perf_counter()
    dp_model = args.dp_model if Path(args.dp_model).is_file() else None
    values = planted_values(args.tickets, args.seed, dp_model)
    rng = np.random.default_rng(args.seed)
    row = {t: diversity(values[t], rng) for t in TYPES if values.get(t)}
    results = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {"steps": {}}
    results["steps"][args.step] = {
        "tickets_planned": args.tickets,
        "health_tickets": dp_model is not None,
        "seconds": round(time.perf_counter() - started, 1),
        "types": row,
        "examples": {
            t: sorted(set(values[t]))[:: max(1, len(set(values[t])) // 10)][:10] for t in row
        },
    }
    write_results(RESULTS.name, results, indent=2)
    print(f"| {args.step} | type | values | distinct | 3-grams / 1,000 | nearest-neighbour sim. |")
    print("| --- | --- | --- | --- | --- | --- |")
    for t, d in row.items():
        print(
            f"| | {t} | {d['values']} | {d['distinct_values']} | "
            f"{d['trigrams_per_1000_values']} | {d['nearest_neighbour_similarity']} |"
        )
    return results


if __name__ == "__main__":
    main()
