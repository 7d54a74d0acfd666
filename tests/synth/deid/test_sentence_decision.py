"""The sentence decision (synth.deid.analyzer.sentences, described): a sentence that reports
someone's conduct, a life event or a reason gets a span where its clause stands, when
the BIO model found none in it. The classifier here is trained on the scripted golden
tickets (70, in tests/data/golden) with the real packaged MiniLM encoder; the one a
detector build trains is measured in benchmarks/deid/sentence_types.py."""

import json

import pytest

from synth.deid.analyzer.described import DETECTOR, described_spans
from synth.deid.analyzer.sentences import (
    NEUTRAL,
    SentenceClassifier,
    sentences,
    train_sentences,
    training_sentences,
)
from synth.deid.spans import Span
from tests.conftest import ROOT
from tests.synth.deid.rules.through_rules import shared

GOLDEN = ROOT / "tests" / "data" / "golden"
# A classifier of 70 tickets is less sure than the build's of 1,600 (its complaint here:
# 0.51, the request's neutral 0.65): the bar these tests decide at.
BAR = 0.4


def golden_rows() -> list[dict]:
    rows = []
    for name in ("tickets_scripted.jsonl", "tickets_classic_scripted.jsonl"):
        rows += [json.loads(line) for line in (GOLDEN / name).read_text().splitlines()]
    return rows


@pytest.fixture(scope="module")
def classifier() -> SentenceClassifier:
    trained = train_sentences(golden_rows(), 0)
    return SentenceClassifier.from_dict(json.loads(json.dumps(trained)))  # as saved


def test_sentences_are_labelled_by_the_clause_they_hold():
    text = "Hi HR,\nI need to change my shift because my son starts school. Thanks"
    at = text.index("my son")
    row = {"text": text, "entities": [{"start": at, "end": at + 20, "label": "reason_of_change"}]}
    assert text[at : at + 20] == "my son starts school"
    texts, labels = training_sentences([row])
    assert ("I need to change my shift because my son starts school.", "CIRCUMSTANCE") in zip(
        texts, labels
    )
    # the clause alone is an example of its type; what is said around it, of neutral
    assert ("my son starts school", "CIRCUMSTANCE") in zip(texts, labels)
    assert ("I need to change my shift because.", NEUTRAL) in zip(texts, labels)
    assert ("Thanks", NEUTRAL) in zip(texts, labels)


def test_a_complaint_written_as_a_whole_sentence_is_replaced_where_it_stands(classifier):
    text = "Hi HR,\nMy supervisor humiliated me in front of the whole team yesterday. Please help."
    (added,) = described_spans([text], [[]], classifier, BAR)
    assert [(text[s.start : s.end], s.type, s.detector) for s in added] == [
        ("humiliated me in front of the whole team yesterday", "CONDUCT", DETECTOR)
    ]
    assert BAR <= added[0].score <= 1
    out, key = shared(text, added)
    # the person named before it stays (its own span, when a detector finds it); the
    # request and the greeting are as written
    assert out.startswith("Hi HR,\nMy supervisor ") and out.endswith(" Please help."), out
    assert "humiliated" not in out and [k["type"] for k in key] == ["CONDUCT"], key


def test_a_sentence_the_model_already_tagged_gets_nothing_more(classifier):
    text = "My supervisor humiliated me in front of the whole team yesterday."
    found = [Span(14, 64, "CONDUCT", "ner")]
    assert described_spans([text], [found], classifier, BAR) == [[]]


def test_a_neutral_request_and_a_cv_get_nothing(classifier):
    request = "Could you send me the form for the travel refund, please?"
    cv = (
        "Ana Souza\n\nExperience\n----------\nMy manager praised me in front of the whole "
        "team.\n\nEducation\n---------\nBSc"
    )
    assert described_spans([request, cv], [[], []], classifier, BAR) == [[], []]


def test_sentences_end_where_people_end_them():
    text = "Hi HR,\nmy colleague keeps taking\nmy parcels. Can you help?\n\nThanks\nAna"
    assert [text[a:b] for a, b in sentences(text)] == [
        "Hi HR,\nmy colleague keeps taking\nmy parcels.",
        "Can you help?",
        "Thanks",
        "Ana",
    ]
