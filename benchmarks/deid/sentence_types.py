"""The sentence decision measured (synth.deid.analyzer.sentences): per sentence of our
annotated sets, does it report someone's conduct, health, a life event or the reason for
a change? Precision and recall per type at each probability bar, against the gold spans
(a sentence is of a type when a gold span of that type overlaps it).

Sets: real_writing (real people's writing, our annotation: CONDUCT, HEALTH, LIFE_EVENT),
dev_people and dev (ours, ticket variables mapped to their types). The classifier is the
one a built detector holds (`--model`), or one trained here on a generate output
(`--tickets`, as `hrsynth detector build` trains it).

    python -m benchmarks.deid.sentence_types --model out/detector/model
    python -m benchmarks.deid.sentence_types --tickets out/detector/tickets

Writes benchmarks/results/sentence_types.json.
"""

import argparse
import json
import time

from benchmarks.deid.detector import TICKET_SETS, hand_labelled, real_writing
from benchmarks.report import RESULTS_DIR, print_table, write_results
from synth.deid.analyzer.sentences import (
    NEUTRAL,
    SentenceClassifier,
    descriptive_types,
    load_sentences,
    sentences,
    train_sentences,
)

BARS = (0.5, 0.7, 0.8, 0.9, 0.95)
RESULTS = RESULTS_DIR / "sentence_types.json"


def gold_sentences(s: dict) -> tuple[list[str], list[str]]:
    """Every sentence of a set and its gold type (NEUTRAL where no descriptive span)."""
    types = descriptive_types()
    wanted = set(types.values())
    texts, labels = [], []
    for doc in s["docs"]:
        spans = [(a, b, types.get(t, t)) for a, b, t in list(doc.entities) + list(doc.personal)]
        spans = [(a, b, t) for a, b, t in spans if t in wanted]
        for a, b in sentences(doc.text):
            held = [t for x, y, t in spans if x < b and a < y]
            texts.append(doc.text[a:b])
            labels.append(held[0] if held else NEUTRAL)
    return texts, labels


def scored(classifier: SentenceClassifier, texts: list[str], labels: list[str]) -> dict:
    probs = classifier.probabilities(texts)
    out = {"sentences": len(texts), "per_type": {}}
    for column, kind in enumerate(classifier.classes):
        if kind == NEUTRAL:
            continue
        gold = [lab == kind for lab in labels]
        row = {"gold": int(sum(gold))}
        for bar in BARS:
            said = [p[column] >= bar for p in probs]
            hit = sum(g and s for g, s in zip(gold, said))
            row[str(bar)] = {
                "said": int(sum(said)),
                "precision": round(hit / sum(said), 3) if sum(said) else None,
                "recall": round(hit / sum(gold), 3) if sum(gold) else None,
            }
        out["per_type"][kind] = row
    # any descriptive type, whichever: is the sentence one to replace at all
    neutral = classifier.classes.index(NEUTRAL)
    gold = [lab != NEUTRAL for lab in labels]
    out["any"] = {"gold": sum(gold)}
    for bar in BARS:
        said = [1 - p[neutral] >= bar for p in probs]
        hit = sum(g and s for g, s in zip(gold, said))
        out["any"][str(bar)] = {
            "said": int(sum(said)),
            "precision": round(hit / sum(said), 3) if sum(said) else None,
            "recall": round(hit / sum(gold), 3) if sum(gold) else None,
        }
    return out


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--model", help="a built detector's folder (its sentences.json)")
    p.add_argument("--tickets", help="a generate output to train the classifier on here")
    p.add_argument("--key", default="sentence decision", help="the results key")
    args = p.parse_args(argv)
    started = time.time()
    if args.tickets:
        from synth.io.shards import shard_dataset

        rows = shard_dataset(args.tickets, ["text", "entities"]).to_pylist()
        trained = train_sentences([r for r in rows if r["text"].strip()], 0)
        classifier = SentenceClassifier.from_dict(trained)
        source = {"trained_here_on": args.tickets, "sentences": trained["trained_on_sentences"]}
    elif args.model:
        classifier = load_sentences(args.model)
        if classifier is None:
            p.error(f"--model {args.model}: no sentences.json there")
        source = {"model": args.model}
    else:
        p.error("--model or --tickets is needed")
    sets = {name: hand_labelled(path) for name, path in TICKET_SETS.items()}
    if (real := real_writing()) is not None:
        sets = {"real_writing": real, **sets}
    kinds = {
        "real_writing": "real people's writing (CFPB complaints, Enron HR mail), our annotation",
        "dev_people": "ours, written the way people write",
        "dev": "ours (first release)",
    }
    results = {"source": source, "kinds": kinds, "sets": {}}
    rows = []
    for name, s in sets.items():
        done = results["sets"][name] = scored(classifier, *gold_sentences(s))
        for kind, row in {**done["per_type"], "any": done["any"]}.items():
            for bar in BARS:
                r = row[str(bar)]
                rows.append({"set": name, "type": kind, "bar": bar, "gold": row["gold"], **r})
    results["wall_s"] = round(time.time() - started, 1)
    earlier = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    earlier.pop("provenance", None)
    path = write_results(RESULTS.name, {**earlier, args.key: results}, indent=2)
    columns = [("set", "set", ""), ("type", "type", ""), ("bar", "bar", ""), ("gold", "gold", "")]
    columns += [
        ("said", "said", ""),
        ("precision", "precision", ".3f"),
        ("recall", "recall", ".3f"),
    ]
    print_table(rows, columns)
    print(f"written: {path}")
    return results


if __name__ == "__main__":
    main()
