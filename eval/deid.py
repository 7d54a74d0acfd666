"""How well de-identification did on documents with gold personal-data spans.

- detection: precision/recall/F1 per type and overall, exact (same offsets and type)
  and overlap (any overlap with a gold span of the same type; each gold span matched once)
- privacy: the resume paper's score per document (synth.deid.privacy): mean, 5th
  percentile, the worst documents' ids
- closeness to the original: BERTScore F1 (the bert-score library on the packaged MiniLM
  encoder, layer 4 of 6) and the cosine of mean-pooled sentence embeddings
- utility: the label classifier trained on the output vs on the raw text, stratified
  5-fold cross-validation, macro and weighted F1. The classifier is a logistic regression
  on frozen MiniLM sentence embeddings (the seed paper fine-tunes BERT per fold; on 2 CPU
  cores 5 folds × every method × detector would take hours): the same classifier on both
  sides, so the drop is what de-identification removed.
"""

from collections import defaultdict

import numpy as np

from eval.metrics import prf
from synth.deid.privacy import privacy_score
from synth.deid.spans import Span

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


def sentence_embeddings(texts: list[str], batch_size: int = 32) -> np.ndarray:
    """Mean-pooled, L2-normalised MiniLM embeddings (the packaged encoder)."""
    import torch
    from transformers import AutoModel

    from eval.encoder import encode, load_tokenizer, resolve_encoder

    name = resolve_encoder(None)
    tokenizer, model = load_tokenizer(name), AutoModel.from_pretrained(name).eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(texts), batch_size):
            enc = encode(tokenizer, texts[i : i + batch_size])
            enc.pop("offset_mapping")
            hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
            out.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
    return np.concatenate(out)


def closeness(originals: list[str], outputs: list[str]) -> dict:
    """BERTScore F1 and embedding cosine between each original and its output (means)."""
    from bert_score import score

    from eval.encoder import resolve_encoder

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
    return {
        "bertscore_f1": float(f1.mean()),
        "embedding_cosine": float((a * b).sum(1).mean()),
    }


def utility(texts: list[str], labels: list[str], seed: int = 0, folds: int = 5) -> dict:
    """Stratified k-fold macro and weighted F1 of the label classifier on `texts`."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedKFold

    x, y = sentence_embeddings(texts), np.array(labels)
    predicted = np.empty_like(y)
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
        model = LogisticRegression(max_iter=2000, C=10.0).fit(x[train], y[train])
        predicted[test] = model.predict(x[test])
    return {
        "macro_f1": float(f1_score(y, predicted, average="macro")),
        "weighted_f1": float(f1_score(y, predicted, average="weighted")),
    }
