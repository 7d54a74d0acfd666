"""Evaluate synthetic training data on a real labelled test set (first cut, issue 4).

    python -m jobs.evaluate --train out/demo --test eval/data/dev_tickets.jsonl \
        --tasks classify,bio_ner,cls_entity_ner,fasttext,intrinsic --output out/eval
    ray job submit --working-dir . -- python -m jobs.evaluate …   (same arguments)

Reads the synthetic Parquet with Ray Data, trains each task on it (the encoder tasks as
Ray Train TorchTrainer runs), tests on the real set and writes metrics.json (every
number, with the test set's hash and size and the training run's manifest) and
report.md. Not yet: privacy checks, plots, history (issue 4 is open).
"""

import argparse
import json
import sys
import time
from pathlib import Path

from jobs.entry import main_for
from synth import ConfigError

TASKS = ("classify", "bio_ner", "cls_entity_ner", "fasttext", "intrinsic")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--train", required=True, help="folder of synthetic Parquet shards")
    p.add_argument("--test", required=True, help="real labelled test set (JSON or JSONL)")
    p.add_argument("--tasks", default=",".join(TASKS))
    p.add_argument("--output", required=True)
    p.add_argument("--base-model", default="minilm")
    p.add_argument("--num-workers", type=int, default=1)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=5e-5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gpu", choices=["auto", "yes", "no"], default="auto")


def _tasks(value: str) -> list[str]:
    tasks = [t.strip() for t in value.split(",") if t.strip()]
    unknown = [t for t in tasks if t not in TASKS]
    if unknown or not tasks:
        raise ConfigError(f"--tasks: unknown task(s) {unknown or value!r}; choose from "
                          f"{', '.join(TASKS)}")
    return tasks


def _check_train(folder: Path) -> None:
    if not folder.is_dir() or not any(folder.glob("*.parquet")):
        raise ConfigError(f"--train {folder}: no Parquet shards there; run `hrsynth "
                          "generate` into it first")


def _read_train(folder: Path):
    import ray

    manifest = folder / "_manifest.json"
    ds = ray.data.read_parquet(str(folder.resolve()), columns=["text", "label", "entities"])
    return ds, json.loads(manifest.read_text()) if manifest.exists() else None


def run(args: argparse.Namespace) -> dict:
    import ray

    from eval import cls_entity, encoder, fasttext_task, intrinsic, metrics
    from eval.testset import load_testset
    from jobs import train
    from synth.taxonomy import load_taxonomy

    tasks = _tasks(args.tasks)
    taxonomy = load_taxonomy()
    labels = sorted(taxonomy)
    entity_labels = sorted({v for s in taxonomy.values() for v in s.variables})
    test = load_testset(args.test, labels, set(entity_labels))
    _check_train(Path(args.train))
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    ds, manifest = _read_train(Path(args.train))
    rows = ds.take_all()
    texts, gold = [d.text for d in test.docs], [d.label for d in test.docs]
    base = encoder.resolve_encoder(args.base_model)
    common = {"encoder": base, "epochs": args.epochs, "lr": args.lr,
              "batch_size": args.batch_size, "seed": args.seed, "test_texts": texts}
    gpu = train.use_gpu(args.gpu)
    result = {"test": {"path": test.path, "sha256": test.sha256, "documents": len(test.docs)},
              "train": {"path": str(args.train), "documents": len(rows),
                        "run_id": (manifest or {}).get("run_id"), "manifest": manifest},
              "config": vars(args), "tasks": {}}
    for task in tasks:
        started = time.perf_counter()
        if task == "classify":
            m, predicted = train.fit("classify", ds, {**common, "labels": labels}, out,
                                     args.num_workers, gpu)
            scores = {**metrics.classification(gold, predicted, labels), "training": m}
        elif task == "fasttext":
            predicted = fasttext_task.train_and_predict(
                [r["text"] for r in rows], [r["label"] for r in rows], texts, args.seed)
            scores = metrics.classification(gold, predicted, labels)
        elif task == "bio_ner":
            tags = ["O"] + [f"{p}-{e}" for e in entity_labels for p in "BI"]
            m, predicted = train.fit("bio_ner", ds, {**common, "tags": tags}, out,
                                     args.num_workers, gpu)
            tokenizer = encoder.load_tokenizer(base)
            true = [encoder.word_tags(tokenizer, d.text, d.entities)[1] for d in test.docs]
            scores = {**metrics.entity_scores(true, predicted), "training": m}
        elif task == "cls_entity_ner":
            nlp = intrinsic.load_nlp()
            train_rows, classes = [], {cls_entity.NONE}
            for r, found in zip(rows, cls_entity.candidates(nlp, [r["text"] for r in rows])):
                spans = [(e["start"], e["end"], e["label"]) for e in r["entities"]]
                for c in found:
                    label = cls_entity.gold_label(c, r["label"], spans)
                    classes.add(label)
                    train_rows.append({"text": r["text"], "start": c[0], "end": c[1],
                                       "label": label})
            items, truth, missed = [], [], 0
            for d, found in zip(test.docs, cls_entity.candidates(nlp, texts)):
                missed += cls_entity.missed(found, d.entities)
                for c in found:
                    items.append((d.text, c[0], c[1]))
                    truth.append(cls_entity.gold_label(c, d.label, d.entities))
            m, predicted = train.fit(
                "cls_entity", ray.data.from_items(train_rows),
                {**common, "labels": sorted(classes), "test_candidates": items}, out,
                args.num_workers, gpu)
            scores = {**cls_entity.scores(truth, predicted, missed), "training": m}
        else:
            scores = {"synthetic": intrinsic.intrinsic([r["text"] for r in rows],
                                                       [r["label"] for r in rows]),
                      "real": intrinsic.intrinsic(texts, gold)}
        scores["wall_s"] = time.perf_counter() - started
        result["tasks"][task] = scores
        print(f"{task}: done in {scores['wall_s']:.1f} s", flush=True)
    (out / "metrics.json").write_text(json.dumps(result, indent=1, default=str))
    (out / "report.md").write_text(report(result))
    print(f"metrics and report written to {out}")
    return result


def report(result: dict) -> str:
    lines = [f"# Evaluation of {result['train']['path']}", "",
             (f"Test set {result['test']['path']} ({result['test']['documents']} documents, "
              f"sha256 {result['test']['sha256'][:12]}…); training documents: "
              f"{result['train']['documents']}."), "", "| task | score | value | wall s |",
             "| --- | --- | ---: | ---: |"]
    for task, s in result["tasks"].items():
        if "macro_f1" in s:
            pairs = [("macro F1", s["macro_f1"]), ("weighted F1", s["weighted_f1"]),
                     ("accuracy", s["accuracy"])]
        elif "exact" in s:
            pairs = [("F1 exact", s["exact"]["f1"]), ("F1 partial", s["partial"]["f1"])]
        elif "f1" in s:
            pairs = [("F1 (candidates)", s["f1"]), ("end-to-end recall", s["end_to_end_recall"])]
        else:
            pairs = [(f"{k} synthetic / real", (f"{s['synthetic']['overall'][k]:.3f} / "
                                                f"{s['real']['overall'][k]:.3f}"))
                     for k in ("ttr_1", "ttr_2", "noun_ratio", "verb_ratio", "log_frequency",
                               "words_mean")]
        for name, value in pairs:
            shown = f"{value:.3f}" if isinstance(value, float) else value
            lines.append(f"| {task} | {name} | {shown} | {s['wall_s']:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "evaluate", argv)


if __name__ == "__main__":
    sys.exit(main())
