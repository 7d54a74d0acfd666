"""fastText on the 40-ticket development set, trained on each default's tickets.

Reads the training sets that benchmarks/evaluation/generalisation.py generated and cached in its
--work folder (the first release's 320 tickets and the new default's 286 kept of 320,
from the same seed), so both defaults are compared at the same scale, in one run. The
development set is ours (eval/data/dev_tickets.jsonl, written knowing the taxonomy).

    python -m benchmarks.evaluation.dev_fasttext [--work out/generalisation]

Prints a table and writes benchmarks/results/dev_fasttext.json.
"""

import argparse
import json
from pathlib import Path

from benchmarks.report import RESULTS_DIR, write_results
from eval import fasttext_task, metrics
from eval.testset import load_testset
from synth.kinds import kind
from synth.kinds.tickets.taxonomy import load_taxonomy

RESULTS = RESULTS_DIR / "dev_fasttext.json"
TRAINING_SETS = {"old": "tickets_classic-101-*.jsonl", "new": "tickets-101-*.jsonl"}


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--work", default="out/generalisation")
    p.add_argument("--test", default="eval/data/dev_tickets.jsonl")
    args = p.parse_args(argv)
    labels = sorted(load_taxonomy())
    test = load_testset(args.test, labels, None)
    gold, texts = [d.label for d in test.docs], [d.text for d in test.docs]
    results = {}
    for name, pattern in TRAINING_SETS.items():
        (path,) = Path(args.work, "sets").glob(pattern)
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        guess, used = fasttext_task.train_chosen_and_predict(
            [r["text"] for r in rows],
            [r["label"] for r in rows],
            texts,
            kind("ticket").FASTTEXT_PRESETS,
            0,
            [r["template_id"] for r in rows],
        )
        scores = metrics.classification(gold, guess, labels)
        results[name] = {
            "training_set": path.name,
            "documents": len(rows),
            "macro_f1": scores["macro_f1"],
            "accuracy": scores["accuracy"],
            "hyperparameters": used,
        }
        print(
            f"{name}: {len(rows)} tickets, macro F1 {scores['macro_f1']:.3f}, "
            f"accuracy {scores['accuracy']:.3f}"
        )
    write_results(
        RESULTS.name, {"test": args.test, "test_documents": len(gold), "results": results}
    )


if __name__ == "__main__":
    main()
