"""The ticket-kind classifier that gates clause types (synth.deid.analyzer.kinds): trained, saved
as plain JSON and read back to the same probabilities; sure only above its bound."""

import json

import numpy as np
import pytest

from synth.deid.analyzer.kinds import (
    KINDS_FILE,
    MIN_PROBABILITY,
    KindClassifier,
    load_kinds,
    train_kinds,
)

TRAIN = {
    "Complaint_Complaint": [
        "my manager keeps shouting at me in meetings",
        "a colleague from accounting takes credit for my work",
        "my supervisor makes jokes about my age",
        "the team lead ignores me and excludes me from emails",
    ],
    "Ask information_Accommodation": [
        "is there a company apartment in Lyon for my two week stay",
        "can HR book a hotel near the Porto office for a month",
        "do we have a corporate rate with hotels in Dublin",
        "I need a flat for my secondment to Krakow, is housing provided",
    ],
    "Timetable change_Shift change": [
        "can I swap my friday shift, I need to drive my mother",
        "I would like to move to the early shift next week",
        "please change my shift on Monday to the late one",
        "could I switch shifts with a colleague on the 3rd",
    ],
}


@pytest.fixture(scope="module")
def trained():
    texts = [t for ts in TRAIN.values() for t in ts]
    labels = [k for k, ts in TRAIN.items() for _ in ts]
    return train_kinds(texts, labels, seed=0), texts, labels


def test_the_saved_classifier_reads_back_to_the_same_probabilities(trained, tmp_path):
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    doc, texts, labels = trained
    (tmp_path / KINDS_FILE).write_text(json.dumps(doc))
    loaded = load_kinds(tmp_path)
    new = ["the hotel in Lyon, is there an apartment?", "my manger keeps shoutng at me"]
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True)
    model = LogisticRegression(C=10.0, max_iter=2000, random_state=0)
    model.fit(vectorizer.fit_transform(texts), labels)
    expected = model.predict_proba(vectorizer.transform(new))
    assert loaded.kinds == list(model.classes_)
    np.testing.assert_allclose(loaded.probabilities(new), expected, atol=1e-5)


def test_a_misspelled_ticket_is_read_by_its_character_ngrams(trained):
    classifier = KindClassifier.from_dict(trained[0])
    probs = classifier.probabilities(["my manger keeps shoutng at me in meetngs"])[0]
    assert classifier.kinds[int(probs.argmax())] == "Complaint_Complaint"


def test_a_kind_is_given_only_where_the_classifier_is_sure(trained):
    classifier = KindClassifier.from_dict(trained[0])
    texts = ["my manager keeps shouting at me in meetings", "hello"]
    probs = classifier.probabilities(texts)
    sure = classifier.sure_kinds(texts)
    for p, kind in zip(probs, sure):
        assert (kind is not None) == (p.max() >= MIN_PROBABILITY)
    assert sure[0] == "Complaint_Complaint"
    assert classifier.sure_kinds([]) == []


def test_a_detector_without_a_classifier_has_none(tmp_path):
    assert load_kinds(tmp_path) is None
