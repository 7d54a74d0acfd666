"""The personal-data detector measured: BIO scores and de-identification with the
default detectors, on every set we have.

Sets (the kind of every number is named in the results):
- dev_people: eval/data/dev_people.jsonl, 80 tickets written by us the way people write
  (10 per label), marked per docs/annotation.md before any detector saw them.
- dev: eval/data/dev_tickets.jsonl, the first release's 40 dev tickets (ours).
- dev_cvs: eval/data/dev_cvs.jsonl, 12 CVs (ours): de-identification only (their labels
  are not the ticket taxonomy's).
- synthetic: held-out generated tickets (--synthetic, another seed than training):
  gold = the planted spans. Written from the same generator: it flatters the detector.

For each ticket set: BIO exact and partial F1, overall and per type (the Ticket Generator thesis's
metric). For each set: `deidentify --method surrogate` with the old default (presidio)
and the new one (presidio + the detector): the privacy score (mean) and the share of
the other words kept.

    python -m benchmarks.deid.detector --model out/detector/model --step "clauses and forms" \\
        [--synthetic out/detector-heldout] [--max-synthetic 400]

Adds the step to benchmarks/results/detector.json (steps measured earlier are kept).
"""

import argparse
import json
import time
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.report import RESULTS_DIR, ROOT, print_table, write_results
from eval.deid import other_words_kept, privacy_summary, replaced_texts
from eval.detector_scores import bio_scores
from eval.testset import TestDoc, load_testset
from synth.deid.gold import annotated_spans, planted_spans
from synth.docs.tickets import evaluation_labels

RESULTS = RESULTS_DIR / "detector.json"
DATA = ROOT / "eval" / "data"
TICKET_SETS = {"dev_people": DATA / "dev_people.jsonl", "dev": DATA / "dev_tickets.jsonl"}
DEFAULTS = {"presidio (old default)": ["presidio"], "presidio+detector": ["presidio", "ner"]}


def hand_labelled(path: Path, entity_labels: set[str] | None = None) -> dict:
    """A set of ours, read and checked as `--test` reads it."""
    docs = load_testset(str(path), None, entity_labels).docs
    return {"docs": docs, "gold": [annotated_spans(d.entities, d.personal) for d in docs]}


def synthetic(folder: str, limit: int) -> dict:
    rows = pq.read_table(folder).sort_by("id").to_pylist()
    rows = [r for r in rows if r["text"].strip()][:limit]
    return {
        "docs": [
            TestDoc(
                r["text"],
                r["label"],
                tuple((e["start"], e["end"], e["label"]) for e in r["entities"]),
            )
            for r in rows
        ],
        "gold": [planted_spans(r["text"], r["entities"], r["persona"]) for r in rows],
    }


def deidentified(texts: list[str], detectors: list, seed: int = 0) -> list[str]:
    from synth.deid.spans import resolve

    found = [d.detect(texts) for d in detectors]
    spans = [resolve([s for f in found for s in f[i]]) for i in range(len(texts))]
    return replaced_texts(texts, spans, [str(i) for i in range(len(texts))], "surrogate", seed)


def measure(model: str, sets: dict) -> dict:
    from synth.deid.detectors import make_detectors

    made = {"presidio": make_detectors(["presidio"])[0], "ner": make_detectors(["ner"], model)[0]}
    out = {}
    for name, s in sets.items():
        texts = [d.text for d in s["docs"]]
        private = [[t[g.start : g.end] for g in spans] for t, spans in zip(texts, s["gold"])]
        entry = {"documents": len(texts)}
        if s.get("bio", True):
            scores = bio_scores(model, s["docs"])
            entry["bio"] = {
                k: scores[k]
                for k in (
                    "exact",
                    "partial",
                    "raw_model",
                    "per_type_exact",
                    "errors",
                    "spans",
                    "without_step",
                )
            }
        entry["deid_surrogate"] = {}
        for combo, parts in DEFAULTS.items():
            outputs = deidentified(texts, [made[p] for p in parts])
            privacy = privacy_summary([str(i) for i in range(len(texts))], private, outputs)
            entry["deid_surrogate"][combo] = {
                "privacy": round(privacy["mean"], 4),
                "other_words_kept": round(other_words_kept(texts, s["gold"], outputs), 4),
            }
        out[name] = entry
        print(f"{name}: done", flush=True)
    return out


def print_results(step: str, sets: dict) -> None:
    print(f"\n{step}")
    rows = []
    for name, e in sets.items():
        bio = e.get("bio") or {}
        old, new = e["deid_surrogate"].values()
        rows.append(
            {
                "set": name,
                "exact": bio.get("exact", {}).get("f1"),
                "partial": bio.get("partial", {}).get("f1"),
                "old": old["privacy"],
                "new": new["privacy"],
                "kept": new["other_words_kept"],
            }
        )
    columns = [("set", "set", ""), ("exact", "BIO exact", ".3f"), ("partial", "partial", ".3f")]
    columns += [("old", "privacy before", ".3f"), ("new", "privacy now", ".3f")]
    print_table(rows, [*columns, ("kept", "other words kept", ".3f")])


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True, help="a built detector (or evaluate's bio_ner)")
    p.add_argument("--step", required=True, help="what this detector is (the results key)")
    p.add_argument("--synthetic", help="held-out generated tickets (not trained on)")
    p.add_argument("--max-synthetic", type=int, default=400)
    args = p.parse_args(argv)
    _, entity_labels = evaluation_labels()
    sets = {name: hand_labelled(path, set(entity_labels)) for name, path in TICKET_SETS.items()}
    sets["dev_cvs"] = {**hand_labelled(DATA / "dev_cvs.jsonl"), "bio": False}
    if args.synthetic:
        sets["synthetic"] = synthetic(args.synthetic, args.max_synthetic)
    started = time.time()
    measured = measure(args.model, sets)
    card = Path(args.model, "detector.json")
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"steps": {}}
    results["steps"][args.step] = {
        "model": json.loads(card.read_text())["version"] if card.exists() else args.model,
        "trained_on": json.loads(card.read_text())["trained_on"] if card.exists() else None,
        "kinds": {
            "dev_people": "ours, written the way people write",
            "dev": "ours (first release)",
            "dev_cvs": "ours (CVs)",
            "synthetic": "generated, held out (flatters the detector)",
        },
        "sets": measured,
        "wall_s": round(time.time() - started, 1),
    }
    write_results(RESULTS.name, results, indent=2)
    print_results(args.step, measured)
    return results


if __name__ == "__main__":
    main()
