"""The privacy score on hand-computed cases; overlap resolution; BIO tags to spans; the
gold spans a synthetic ticket carries."""

import pytest

from synth.deid.gold import planted_spans
from synth.deid.privacy import privacy_score
from synth.deid.spans import Span, resolve, spans_from_word_tags


@pytest.mark.parametrize(
    "strings, output, score",
    [
        (["Paul Martin", "Hamburg"], "Hi, I am [PERSON] from [LOCATION].", 1.0),
        (["Paul Martin", "Hamburg"], "Hi, I am [PERSON] from Hamburg.", 1 - 7 / 18),
        (["Paul Martin", "Hamburg"], "PAUL  MARTIN from hamburg", 0.0),  # case, spaces
        (["Paul Martin", "Paul"], "Thanks, Paul", 1 - 4 / 15),  # the part alone leaks
        ([], "anything", 1.0),
    ],
)
def test_privacy_score(strings, output, score):
    assert privacy_score(strings, output) == pytest.approx(score)


def test_overlapping_spans_keep_the_longest():
    spans = [
        Span(8, 12, "PERSON", "presidio"),
        Span(8, 19, "PERSON", "ner"),
        Span(21, 41, "EMAIL", "presidio"),
        Span(27, 29, "URL", "presidio"),
        Span(50, 55, "DATE", "ner"),
    ]
    assert resolve(spans) == [spans[1], spans[2], spans[4]]


def test_bio_tags_become_spans_of_personal_types_only():
    words = [(0, 4), (5, 7), (8, 13), (14, 17), (18, 22), (23, 29), (30, 33), (34, 39)]
    tags = ["O", "O", "B-location", "I-location", "O", "B-duration", "I-duration", "B-salary"]
    spans = spans_from_word_tags(words, tags, {"location": "LOCATION", "salary": "MONEY"}, "ner")
    assert spans == [Span(8, 17, "LOCATION", "ner"), Span(34, 39, "MONEY", "ner")]


def test_gold_spans_hold_the_planted_variables_and_the_persona():
    text = "Hi, I need a room in Lyon for two weeks. Thanks, Paul (Paul Martin, ACME)"
    entities = [
        {"start": 21, "end": 25, "label": "location"},
        {"start": 30, "end": 39, "label": "duration"},  # how long: it points back too
    ]
    persona = {"first_name": "Paul", "name": "Paul Martin", "company": "ACME", "email": "p@x.io"}
    spans = planted_spans(text, entities, persona)
    assert [(text[s.start : s.end], s.type) for s in spans] == [
        ("Lyon", "LOCATION"),
        ("two weeks", "SPAN_OF_TIME"),
        ("Paul", "PERSON"),
        ("Paul Martin", "PERSON"),
        ("ACME", "ORGANIZATION"),
    ]
