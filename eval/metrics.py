"""Metric code shared by every evaluation task, kept apart so it can be checked by hand.

Classification: accuracy, macro and weighted F1, a per-class table and the confusion
matrix (scikit-learn). Entities: seqeval's entity-level exact match over BIO tags, and a
partial match defined here: a predicted entity is correct when it overlaps a gold entity
of the same type that no earlier prediction has claimed (each gold entity counts once).
Text: type-token ratio of n-grams.
"""

from seqeval.metrics import classification_report as seqeval_report
from seqeval.metrics import f1_score as seqeval_f1
from seqeval.metrics import precision_score as seqeval_precision
from seqeval.metrics import recall_score as seqeval_recall
from seqeval.metrics.sequence_labeling import get_entities
from sklearn.metrics import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    precision_recall_fscore_support,
)


def classification(y_true: list[str], y_pred: list[str], labels: list[str]) -> dict:
    """Scores over the labels the test set holds: a label with no test document has no
    recall, and averaging its F1 of 0 in would understate every model (a one-label set
    gave 0.071 macro F1 where that label's F1 was 0.571). Absent labels are listed
    (`labels_absent_from_test`) and still counted as wrong predictions."""
    present = [label for label in labels if label in set(y_true)] or labels
    precision, recall, f1, support = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, zero_division=0
    )
    return {
        "accuracy": float(accuracy_score(y_true, y_pred)),
        "macro_f1": float(
            f1_score(y_true, y_pred, labels=present, average="macro", zero_division=0)
        ),
        "weighted_f1": float(
            f1_score(y_true, y_pred, labels=present, average="weighted", zero_division=0)
        ),
        "per_class": {
            label: {"precision": float(p), "recall": float(r), "f1": float(f), "support": int(s)}
            for label, p, r, f, s in zip(labels, precision, recall, f1, support)
        },
        "labels": labels,
        "labels_absent_from_test": [label for label in labels if label not in present],
        "confusion": confusion_matrix(y_true, y_pred, labels=labels).tolist(),
    }


def prf(tp_pred: int, n_pred: int, tp_gold: int, n_gold: int) -> dict:
    """Precision tp_pred / n_pred, recall tp_gold / n_gold (equal tps unless partial
    matches count differently on each side), F1; 0 where a denominator is 0."""
    p = tp_pred / n_pred if n_pred else 0.0
    r = tp_gold / n_gold if n_gold else 0.0
    return {
        "precision": p,
        "recall": r,
        "f1": 2 * p * r / (p + r) if p + r else 0.0,
        "predicted": n_pred,
        "gold": n_gold,
    }


def partial_match(true_tags: list[list[str]], pred_tags: list[list[str]]) -> dict:
    """Overlap of the same type counts; each gold entity is matched at most once."""
    tp, n_pred, n_gold = 0, 0, 0
    for gold_seq, pred_seq in zip(true_tags, pred_tags):
        gold = get_entities(gold_seq)
        pred = get_entities(pred_seq)
        n_gold, n_pred = n_gold + len(gold), n_pred + len(pred)
        claimed = set()
        for kind, start, end in pred:
            for i, (g_kind, g_start, g_end) in enumerate(gold):
                if i not in claimed and g_kind == kind and start <= g_end and g_start <= end:
                    claimed.add(i)
                    tp += 1
                    break
    return prf(tp, n_pred, tp, n_gold)


def entity_scores(true_tags: list[list[str]], pred_tags: list[list[str]]) -> dict:
    """Exact (seqeval, entity level) and partial precision/recall/F1 over BIO tags."""
    n_pred = sum(len(get_entities(s)) for s in pred_tags)
    n_gold = sum(len(get_entities(s)) for s in true_tags)
    exact = {
        "precision": float(seqeval_precision(true_tags, pred_tags, zero_division=0)),
        "recall": float(seqeval_recall(true_tags, pred_tags, zero_division=0)),
        "f1": float(seqeval_f1(true_tags, pred_tags, zero_division=0)),
        "predicted": n_pred,
        "gold": n_gold,
    }
    report = seqeval_report(true_tags, pred_tags, output_dict=True, zero_division=0)
    per_type = {
        kind: {
            "precision": float(r["precision"]),
            "recall": float(r["recall"]),
            "f1": float(r["f1-score"]),
            "support": int(r["support"]),
        }
        for kind, r in report.items()
        if not kind.endswith(" avg")
    }
    return {
        "exact": exact,
        "partial": partial_match(true_tags, pred_tags),
        "per_type_exact": per_type,
    }


def bio_scores(texts: list[str], gold: list, predicted: list[list[str]]) -> dict:
    """entity_scores of BIO tags against gold (words, tags) per text: a kind's plain
    BIO NER scoring (jobs.eval_tasks.bio_scoring)."""
    return entity_scores([tags for _, tags in gold], predicted)


def type_token_ratio(tokens: list[str], n: int = 1) -> float:
    """Distinct n-grams over all n-grams (0 when the text is shorter than n)."""
    grams = [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    return len(set(grams)) / len(grams) if grams else 0.0
