"""A BIO model's scores on a labelled test set: the thesis's metric (exact and partial
F1 over the taxonomy's variables), per type. Used by `hrsynth detector build` for the
model card and by benchmarks/detector.py."""

from eval.testset import TestDoc


def bio_scores(model_dir: str, docs: list[TestDoc] | tuple[TestDoc, ...]) -> dict:
    from transformers import AutoModelForTokenClassification

    from eval import encoder, metrics

    model = AutoModelForTokenClassification.from_pretrained(model_dir)
    tags = [model.config.id2label[i] for i in range(model.config.num_labels)]
    tokenizer = encoder.load_tokenizer(model_dir)
    known = {t[2:] for t in tags if t != "O"}
    # Gold spans of a type the model has no tag for count as misses, not as errors here.
    true = [encoder.word_tags(tokenizer, d.text, d.entities)[1] for d in docs]
    predicted = encoder.predict_word_tags(model, tokenizer, [d.text for d in docs], tags)
    scores = metrics.entity_scores(true, predicted)
    scores["documents"] = len(docs)
    scores["types_without_a_tag"] = sorted({e[2] for d in docs for e in d.entities} - known)
    return scores
