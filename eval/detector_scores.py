"""A BIO model's scores on a labelled test set: the Ticket Generator thesis's metric (exact and partial
F1 over the taxonomy's variables), per type. Used by `hrsynth detector build` for the
model card and by benchmarks/deid/detector.py."""

from eval.testset import TestDoc
from synth.deid.analyzer.hygiene import STEPS, detector_tags
from synth.deid.analyzer.kinds import load_kinds


def bio_scores(
    model_dir: str, docs: list[TestDoc] | tuple[TestDoc, ...], precision: str = "float32"
) -> dict:
    """`precision`: the encoder's (synth.precision)."""
    from transformers import AutoModelForTokenClassification

    from synth import encoder

    model = AutoModelForTokenClassification.from_pretrained(model_dir)
    tags = [model.config.id2label[i] for i in range(model.config.num_labels)]
    tokenizer = encoder.load_tokenizer(model_dir)
    known = {t[2:] for t in tags if t != "O"}
    # Gold spans of a type the model has no tag for count as misses, not as errors here.
    gold = [encoder.word_tags(tokenizer, d.text, d.entities) for d in docs]
    texts = [d.text for d in docs]
    raw = encoder.predict_word_tags(
        model, tokenizer, texts, tags, allowed=_allowed(model, tags, texts), precision=precision
    )
    classifier = load_kinds(model_dir)
    kinds = classifier.sure_kinds(texts) if classifier else None
    scores = ticket_bio_scores(texts, gold, raw, kinds)
    scores["documents"] = len(docs)
    scores["types_without_a_tag"] = sorted({e[2] for d in docs for e in d.entities} - known)
    return scores


def _allowed(model, tags: list[str], texts: list[str]) -> list[list[bool]] | None:
    """The tags each text's kind allows, for a model with labels per kind (its config's
    `kind_tags`: they are part of what it predicts); None for one without."""
    from synth.deid.analyzer.kind_tags import allowed_tags, document_kind

    by_kind = getattr(model.config, "kind_tags", None)
    if by_kind is None:
        return None
    return [allowed_tags(tags, by_kind, document_kind(t)) for t in texts]


def ticket_bio_scores(
    texts: list[str], gold: list, raw: list[list[str]], kinds: list | None = None
) -> dict:
    """Scores of the detector's output (synth.deid.analyzer.hygiene.detector_tags: roles by
    context, places, span hygiene) with the raw model's beside them, the kinds of error,
    and what each step of the output adds (`without_step`: exact / partial F1 and error
    kinds with that step left out). `gold`: (words, gold tags) per text; `kinds`: the kind classifier's sure kinds."""
    from eval import metrics

    true = [tags for _, tags in gold]

    def output(steps):
        read = kinds or [None] * len(texts)
        return [detector_tags(t, w, r, steps, k) for t, (w, _), r, k in zip(texts, gold, raw, read)]

    predicted = output(STEPS)
    scores = metrics.entity_scores(true, predicted)
    unresolved = metrics.entity_scores(true, raw)
    scores["raw_model"] = {k: unresolved[k] for k in ("exact", "partial")}
    scores["errors"] = error_kinds(true, predicted)
    scores["spans"] = {"gold": _count(true), "predicted": _count(predicted)}
    scores["without_step"] = {}
    for step in STEPS:
        without = output([s for s in STEPS if s != step])
        s = metrics.entity_scores(true, without)
        scores["without_step"][step] = {
            "exact_f1": s["exact"]["f1"],
            "partial_f1": s["partial"]["f1"],
            "predicted_spans": _count(without),
            "errors": error_kinds(true, without),
        }
    return scores


def _count(tags: list[list[str]]) -> int:
    from seqeval.metrics.sequence_labeling import get_entities

    return sum(len(get_entities(t)) for t in tags)


def error_kinds(true: list[list[str]], predicted: list[list[str]]) -> dict:
    """What the model gets wrong, counted over the gold spans (word level): exact; shorter
    or longer than the gold span with the right type; the right words typed with another
    role (with the confusions, gold -> predicted); missed; and predicted spans that
    overlap no gold span (with their types)."""
    from collections import Counter

    from seqeval.metrics.sequence_labeling import get_entities

    counts, confusions, spurious = Counter(), Counter(), Counter()
    for gold_tags, pred_tags in zip(true, predicted):
        gold, pred = get_entities(gold_tags), get_entities(pred_tags)
        for g_type, g_start, g_end in gold:
            hits = [p for p in pred if p[1] <= g_end and g_start <= p[2]]
            same = [p for p in hits if p[0] == g_type]
            if (g_type, g_start, g_end) in pred:
                counts["exact"] += 1
            elif same:
                inside = all(g_start <= p[1] and p[2] <= g_end for p in same)
                counts["shorter" if inside else "longer"] += 1
            elif hits:
                counts["wrong_role"] += 1
                confusions[f"{g_type} -> {hits[0][0]}"] += 1
            else:
                counts["missed"] += 1
        counts["spurious"] += 0  # always reported
        for p in pred:
            if not any(p[1] <= g[2] and g[1] <= p[2] for g in gold):
                counts["spurious"] += 1
                spurious[p[0]] += 1
    return {
        **dict(counts),
        "confusions": dict(confusions.most_common(10)),
        "spurious_by_type": dict(spurious.most_common()),
    }
