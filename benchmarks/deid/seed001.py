"""Seed 001's own test: does a classifier trained on de-identified documents lose
anything against one trained on the originals? (its Tables 3 and 4; issue 93).

Both classifiers are tested on the *original* held-out documents, so the question is
what a team gives up by training on what it may share.

- CVs: `../shared/data/cv_second` (1,500 IT resumes, 10 roles; measurement only, never
  copied into the project), `--per-role` of each role (stratified, seed 0), 5 stratified
  folds. Each fold's training resumes are de-identified by every method (none, tag,
  surrogate) with the default detectors (presidio + the built detector), a classifier is
  trained on each and scored on the fold's original test resumes.
- Tickets: `--tickets` synthetic tickets (a generate output; default the ones `make
  detector` wrote) de-identified the same way, each classifier scored on our 120
  human-style dev tickets (eval/data/dev_people.jsonl, dev_tickets.jsonl).

Classifiers: fastText (the evaluate job's baseline, its preset chosen on the training
data only) and the MiniLM sentence classifier (eval.deid.utility's: the shipped encoder's
embeddings, logistic regression). Per method: macro-F1 over the pooled folds, per-fold
macro-F1, the drop against `none`, a paired t-test over the folds (scipy's ttest_rel)
and an exact McNemar test on which test documents each gets right.

    python -m benchmarks.deid.seed001 [--per-role 60] [--folds 5] [--tickets out/detector/tickets]

Writes benchmarks/results/seed001.json and prints the tables.
"""

import argparse
import time
from pathlib import Path

import numpy as np

from benchmarks.report import ROOT, print_table, write_results

CV_CORPUS = ROOT.parent / "shared" / "data" / "cv_second" / "cvs.csv"
DEV_TICKETS = [
    ROOT / "eval" / "data" / "dev_people.jsonl",
    ROOT / "eval" / "data" / "dev_tickets.jsonl",
]
METHODS = ("none", "tag", "surrogate")
CLASSIFIERS = ("fasttext", "minilm")


def deidentified(ids: list[str], texts: list[str], detectors: list, seed: int = 0) -> dict:
    """{method: texts}: every document detected once, then written by each method (as
    synth.deid.pipeline does, display order first)."""
    from synth.deid.analyzer.analyze import detect
    from synth.deid.anonymizer.operators import anonymized
    from synth.deid.pipeline import kind_classifier
    from synth.deid.visible import display_order

    shown = [display_order(t) for t in texts]
    read = [s.text for s in shown]
    found = detect(read, detectors)
    kinds = kind_classifier(detectors)
    out = {"none": list(texts)}
    for method in METHODS[1:]:
        done = anonymized(ids, read, found, method, seed, "US", kinds, shown)
        out[method] = [d.text if d.text is not None else "" for d in done]
    return out


def classify(
    name: str, train: list[str], labels: list[str], test: list[str], seed: int
) -> list[str]:
    if name == "fasttext":
        from eval.fasttext_task import PRESETS, train_chosen_and_predict

        predicted, _ = train_chosen_and_predict(train, labels, test, tuple(PRESETS), seed)
        return predicted
    from sklearn.linear_model import LogisticRegression

    from synth.encoder import sentence_embeddings

    model = LogisticRegression(max_iter=2000, C=10.0).fit(sentence_embeddings(train), labels)
    return list(model.predict(sentence_embeddings(test)))


def compared(gold: list[str], predicted: dict, fold_of: np.ndarray) -> dict:
    """Per method: pooled and per-fold macro-F1, drop and tests against `none`."""
    from scipy.stats import binomtest, ttest_rel
    from sklearn.metrics import f1_score

    gold = np.array(gold)
    folds = sorted(set(fold_of.tolist()))

    def per_fold(p):
        return [f1_score(gold[fold_of == f], p[fold_of == f], average="macro") for f in folds]

    base = np.array(predicted["none"])
    base_folds = per_fold(base)
    out = {}
    for method, p in predicted.items():
        p = np.array(p)
        row = {
            "macro_f1": float(f1_score(gold, p, average="macro")),
            "per_fold": [round(float(x), 4) for x in per_fold(p)],
        }
        if method != "none":
            row["drop"] = out["none"]["macro_f1"] - row["macro_f1"]
            row["paired_t_p"] = (
                float(ttest_rel(base_folds, row["per_fold"]).pvalue) if len(folds) > 1 else None
            )
            only_base = int(((base == gold) & (p != gold)).sum())
            only_this = int(((base != gold) & (p == gold)).sum())
            n = only_base + only_this
            row["mcnemar"] = {
                "only_original_right": only_base,
                "only_deidentified_right": only_this,
                "p": float(binomtest(only_base, n, 0.5).pvalue) if n else 1.0,
            }
        out[method] = row
    return out


def cv_experiment(args, detectors) -> dict:
    import pandas as pd
    from sklearn.model_selection import StratifiedKFold

    frame = pd.read_csv(CV_CORPUS, encoding_errors="replace").drop_duplicates("Resume")
    frame = pd.concat(
        g.sample(min(len(g), args.per_role), random_state=0) for _, g in frame.groupby("Category")
    )
    texts, labels = frame["Resume"].astype(str).tolist(), frame["Category"].tolist()
    ids = [f"cv-{i}" for i in range(len(texts))]
    started = time.perf_counter()
    written = deidentified(ids, texts, detectors, args.seed)
    seconds = time.perf_counter() - started
    fold_of = np.empty(len(texts), dtype=int)
    predicted = {c: {m: [None] * len(texts) for m in METHODS} for c in CLASSIFIERS}
    splitter = StratifiedKFold(args.folds, shuffle=True, random_state=args.seed)
    for fold, (train, test) in enumerate(splitter.split(texts, labels)):
        fold_of[test] = fold
        originals = [texts[i] for i in test]
        for method in METHODS:
            train_texts = [written[method][i] for i in train]
            train_labels = [labels[i] for i in train]
            for c in CLASSIFIERS:
                for i, p in zip(test, classify(c, train_texts, train_labels, originals, args.seed)):
                    predicted[c][method][i] = p
    return {
        "documents": len(texts),
        "roles": len(set(labels)),
        "deidentify_seconds": round(seconds, 1),
        "classifiers": {c: compared(labels, predicted[c], fold_of) for c in CLASSIFIERS},
    }


def ticket_experiment(args, detectors) -> dict | None:
    import pyarrow.parquet as pq

    from eval.testset import load_testset

    folder = Path(args.tickets) / "data"
    if not folder.is_dir():
        return None
    table = pq.read_table(folder, columns=["id", "text", "label"]).to_pylist()[: args.max_tickets]
    ids, texts, labels = (
        [r["id"] for r in table],
        [r["text"] for r in table],
        [r["label"] for r in table],
    )
    written = deidentified(ids, texts, detectors, args.seed)
    test = [d for path in DEV_TICKETS for d in load_testset(str(path), None, None).docs]
    test_texts, test_labels = [d.text for d in test], [d.label for d in test]
    out = {"train_tickets": len(texts), "test_tickets": len(test), "classifiers": {}}
    for c in CLASSIFIERS:
        predicted = {m: classify(c, written[m], labels, test_texts, args.seed) for m in METHODS}
        out["classifiers"][c] = compared(test_labels, predicted, np.zeros(len(test), dtype=int))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-role", type=int, default=60)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tickets", default=str(ROOT / "out" / "detector" / "tickets"))
    parser.add_argument("--max-tickets", type=int, default=800)
    parser.add_argument("--detectors", default="default", choices=["default", "presidio"])
    args = parser.parse_args(argv)
    from synth.deid.analyzer.detectors import make_detectors
    from synth.deid.registry import default_detector

    built = default_detector()
    if args.detectors == "default" and built is None:
        raise SystemExit(
            "no built detector: run `make detector` first, or pass --detectors presidio"
        )
    names = ["presidio", "ner"] if args.detectors == "default" else ["presidio"]
    detectors = make_detectors(names, built["path"] if built else None)
    result = {"detectors": "+".join(names), "folds": args.folds, "per_role": args.per_role}
    if CV_CORPUS.is_file():
        result["cvs"] = cv_experiment(args, detectors)
    result["tickets"] = ticket_experiment(args, detectors)
    for part in ("cvs", "tickets"):
        if not result.get(part):
            continue
        for c, rows in result[part]["classifiers"].items():
            print(f"\n{part}, {c} (tested on original documents)")
            print_table(
                [
                    {"method": m, **r, "p_mc": r.get("mcnemar", {}).get("p")}
                    for m, r in rows.items()
                ],
                [
                    ("method", "method", ""),
                    ("macro_f1", "macro-F1", ".3f"),
                    ("drop", "drop", "+.3f"),
                    ("paired_t_p", "paired t p", ".3f"),
                    ("p_mc", "McNemar p", ".3f"),
                ],
            )
    write_results("seed001.json", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
