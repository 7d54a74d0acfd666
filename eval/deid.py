"""How well de-identification did on documents with gold personal-data spans.

- detection: precision/recall/F1 per type and overall, exact (same offsets and type)
  and overlap (any overlap with a gold span of the same type; each gold span matched once)
- privacy: the resume de-identification study's score per document (docs/references.md) (synth.deid.privacy): mean, 5th
  percentile, the worst documents' ids
- closeness to the original: BERTScore F1 (the bert-score library on the packaged MiniLM
  encoder, layer 4 of 6) and the cosine of mean-pooled sentence embeddings
- utility: the label classifier trained on the output vs on the raw text, stratified
  5-fold cross-validation, macro and weighted F1. The classifier is a logistic regression
  on frozen MiniLM sentence embeddings (that study fine-tunes BERT per fold; on 2 CPU
  cores 5 folds × every method × detector would take hours): the same classifier on both
  sides, so the drop is what de-identification removed.
- temperatures (the language-model methods): a Friedman test over the per-document
  scores at each temperature (the same documents are the blocks), then Conover's
  post-hoc test between pairs, Holm-adjusted (scikit-posthocs), as that study does.
"""

import time
from collections import defaultdict

import numpy as np

from eval.metrics import prf
from synth.deid.privacy import privacy_score
from synth.deid.spans import Span, resolve

# Detector combinations measured, and the methods applied with each.
COMBINATIONS = {
    "presidio-basic": ["presidio-basic"],
    "presidio": ["presidio"],
    "ner": ["ner"],
    "presidio+ner": ["presidio", "ner"],
}
SPAN_METHODS = ("tag", "surrogate")

BERTSCORE_LAYER = 4  # of MiniLM's 6: bert-score's choice for small BERTs is a middle layer


def detection_scores(gold: list[list[Span]], predicted: list[list[Span]]) -> dict:
    """{type or 'all': {exact: prf, overlap: prf}} over the documents."""
    counts = defaultdict(lambda: np.zeros(5, dtype=int))  # pred, gold, exact, ov_pred, ov_gold
    for gold_spans, pred_spans in zip(gold, predicted):
        for key in {"all"} | {s.type for s in gold_spans + pred_spans}:
            g = [s for s in gold_spans if key in ("all", s.type)]
            p = [s for s in pred_spans if key in ("all", s.type)]
            exact = len(
                {(s.start, s.end, s.type) for s in g} & {(s.start, s.end, s.type) for s in p}
            )
            matched, hits = set(), 0
            for span in p:
                hit = next(
                    (
                        i
                        for i, s in enumerate(g)
                        if i not in matched and s.type == span.type and s.overlaps(span)
                    ),
                    None,
                )
                if hit is not None:
                    matched.add(hit)
                    hits += 1
            counts[key] += [len(p), len(g), exact, hits, len(matched)]
    out = {}
    for key, c in sorted(counts.items()):
        pred, gold_n, exact, hits, matched = (int(x) for x in c)  # JSON-ready
        out[key] = {
            "exact": prf(exact, pred, exact, gold_n),
            "overlap": prf(hits, pred, matched, gold_n),
        }
    return out


def privacy_summary(
    ids: list[str], private: list[list[str]], outputs: list[str], worst: int = 5
) -> dict:
    scores = np.array([privacy_score(strings, out) for strings, out in zip(private, outputs)])
    order = np.argsort(scores, kind="stable")[:worst]
    return {
        "mean": float(scores.mean()),
        "p5": float(np.percentile(scores, 5)),
        "share_perfect": float((scores == 1.0).mean()),
        "worst": [{"id": ids[i], "score": float(scores[i])} for i in order],
    }


def closeness(originals: list[str], outputs: list[str], per_document: bool = False) -> dict:
    """BERTScore F1 and embedding cosine between each original and its output (means;
    with `per_document`, the lists too)."""
    from bert_score import score

    from synth.encoder import resolve_encoder, sentence_embeddings

    # bert-score 0.3.13 fails on an empty text under transformers 5: score "." instead.
    _, _, f1 = score(
        [o if o.strip() else "." for o in outputs],
        [o if o.strip() else "." for o in originals],
        model_type=resolve_encoder(None),
        num_layers=BERTSCORE_LAYER,
        batch_size=32,
        lang="en",
    )
    a, b = sentence_embeddings(originals), sentence_embeddings(outputs)
    cosine = (a * b).sum(1)
    means = {"bertscore_f1": float(f1.mean()), "embedding_cosine": float(cosine.mean())}
    if per_document:
        means |= {"bertscore_f1_each": f1.tolist(), "embedding_cosine_each": cosine.tolist()}
    return means


def temperature_tests(scores: dict[str, list[float]]) -> dict:
    """`scores`: temperature → one score per document (same documents, same order).
    Friedman's chi-square and p-value, and Conover's Holm-adjusted p-value per pair."""
    import scikit_posthocs
    from scipy.stats import friedmanchisquare

    names = list(scores)
    table = np.array([scores[n] for n in names]).T  # documents x temperatures
    if np.ptp(table, axis=1).max() == 0:  # every document scored alike at every temperature
        return {"friedman_chi2": 0.0, "friedman_p": 1.0, "conover_p": {}}
    statistic, p = friedmanchisquare(*table.T)
    pairs = scikit_posthocs.posthoc_conover_friedman(table, p_adjust="holm").to_numpy()
    return {
        "friedman_chi2": float(statistic),
        "friedman_p": float(p),
        "conover_p": {
            f"{names[i]} vs {names[j]}": float(pairs[i, j])
            for i in range(len(names))
            for j in range(i + 1, len(names))
        },
    }


def utility(texts: list[str], labels: list[str], seed: int = 0, folds: int = 5) -> dict | None:
    """Stratified k-fold macro and weighted F1 of the label classifier on `texts`; fewer
    folds when a label has fewer than `folds` documents, None when one has only one."""
    from collections import Counter

    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedKFold

    folds = min(folds, min(Counter(labels).values()))
    if folds < 2:
        return None
    from synth.encoder import sentence_embeddings

    x, y = sentence_embeddings(texts), np.array(labels)
    predicted = np.empty_like(y)
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
        model = LogisticRegression(max_iter=2000, C=10.0).fit(x[train], y[train])
        predicted[test] = model.predict(x[test])
    return {
        "macro_f1": float(f1_score(y, predicted, average="macro")),
        "weighted_f1": float(f1_score(y, predicted, average="weighted")),
    }


def deid_scores(docs: dict, ner_model: str | None, seed: int = 0) -> dict:
    """Every detector combination (those with `ner` only given a model) × tag and
    surrogate on `docs` (ids, texts, labels, gold spans): detection, privacy, closeness,
    utility and its drop from the raw text, and recall on the quasi-identifiers."""
    from synth.deid.analyzer.detectors import make_detectors
    from synth.deid.types import personal_types

    texts, ids = docs["texts"], docs["ids"]
    private = [[t[s.start : s.end] for s in spans] for t, spans in zip(texts, docs["gold"])]
    result = {
        "documents": len(texts),
        "gold_spans": sum(len(g) for g in docs["gold"]),
        "raw_utility": utility(texts, docs["labels"], seed),
        "detectors": {},
    }
    singles = [d for d in ("presidio-basic", "presidio", "ner") if ner_model or d != "ner"]
    found, seconds = {}, {}
    for detector in singles:
        (made,) = make_detectors([detector], ner_model)
        started = time.perf_counter()
        found[detector] = made.detect(texts)
        seconds[detector] = time.perf_counter() - started
    for combo, parts in COMBINATIONS.items():
        if not set(parts) <= set(found):
            continue
        spans = [resolve([s for p in parts for s in found[p][i]]) for i in range(len(texts))]
        entry = {
            "detection": detection_scores(docs["gold"], spans),
            "seconds_per_doc": sum(seconds[p] for p in parts) / len(texts),
            "methods": {},
        }
        for method in SPAN_METHODS:
            outputs = replaced_texts(texts, spans, ids, method, seed)
            entry["methods"][method] = {
                "privacy": privacy_summary(ids, private, outputs),
                **closeness(texts, outputs),
                **utility_change(result["raw_utility"], outputs, docs["labels"], seed),
            }
        result["detectors"][combo] = entry
    result["quasi_recall"] = {
        detector: {
            t: result["detectors"][detector]["detection"]
            .get(t, {})
            .get("overlap", {})
            .get("recall")
            for t in sorted(personal_types().quasi)
        }
        for detector in singles
    }
    return result


def replaced_texts(
    texts: list[str], spans: list[list[Span]], ids: list[str], method: str, seed: int
) -> list[str]:
    """Every document with its (resolved) spans tagged or replaced by surrogates."""
    from synth.deid.anonymizer.operators import replace_spans
    from synth.deid.anonymizer.surrogates import Surrogates

    return [
        replace_spans(t, s, method, Surrogates(seed, i) if method == "surrogate" else None).text
        for t, s, i in zip(texts, spans, ids)
    ]


def utility_change(raw: dict | None, outputs: list[str], labels: list[str], seed: int) -> dict:
    """The output's utility and its drop from the raw text's (None where not measurable)."""
    used = utility(outputs, labels, seed) if raw else None
    return {"utility": used, "utility_drop": raw["macro_f1"] - used["macro_f1"] if used else None}


def other_words_kept(texts: list[str], gold: list[list[Span]], outputs: list[str]) -> float:
    """Share of the words outside the gold private spans that the output still holds
    (counted with multiplicity, case-insensitive): what de-identification left for use."""
    import re
    from collections import Counter

    kept = total = 0
    for text, spans, output in zip(texts, gold, outputs):
        words = Counter(
            m.group().lower()
            for m in re.finditer(r"\w+", text)
            if not any(s.start <= m.start() < s.end for s in spans)
        )
        left = Counter(w.lower() for w in re.findall(r"\w+", output))
        kept += sum((words & left).values())
        total += sum(words.values())
    return kept / total if total else 1.0
