"""The `readable` rule (synth/deid/analyzer/rules/readable.py) and the surrogate it leads
to: a complaint is replaced by a phrase of its own grammatical shape, a predicate where
the words before it are its subject or helper, else its whole sentence by a sentence
(issue 93: "… close to has been treating me …", "this email has acted …")."""

import pytest

from synth.deid.analyzer.rules import readable as rule
from synth.deid.anonymizer.surrogates import neutral_phrases
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of

CONDUCT = neutral_phrases()["CONDUCT"]


@pytest.mark.parametrize(
    ("before", "clause", "shape"),
    [
        ("my manager ", "keeps shouting at me in meetings", "after_person"),
        ("he ", "shouted at me in front of clients", "past"),
        ("Anna keeps ", "mocking my accent", "gerund"),
        ("they ", "keep ignoring my emails", "base"),  # the base form reads as plural
    ],
)
def test_a_predicate_after_its_subject_becomes_a_predicate_of_its_shape(before, clause, shape):
    text = f"Hi HR,\n{before}{clause}. Please help.\nAnna"
    out, _ = shared(text, [span_of(text, clause, "CONDUCT")])
    assert any(out == f"Hi HR,\n{before}{p}. Please help.\nAnna" for p in CONDUCT[shape]), out


@pytest.mark.parametrize(
    ("sentence", "clause", "shape"),
    [
        (
            "This email has been forwarded to everyone mocking my accent.",
            "has been forwarded to everyone mocking my accent",
            "clause",
        ),
        (
            "I sit close to has been treating me badly.",
            "has been treating me badly",
            "first_person",
        ),
    ],
)
def test_a_predicate_that_cannot_follow_what_is_before_it_becomes_its_sentence(
    sentence, clause, shape
):
    text = f"Hi HR,\n{sentence} Please help.\nAnna"
    at = text.index(clause)
    (span,) = rule.apply(text, [Span(at, at + len(clause), "CONDUCT", "ner")])
    assert text[span.start : span.end] == sentence
    out, _ = shared(text, [span_of(text, clause, "CONDUCT")])
    assert any(out == f"Hi HR,\n{p}. Please help.\nAnna" for p in CONDUCT[shape]), out


def test_a_predicate_after_a_person_replaced_just_before_stays_a_predicate():
    text = "Hi,\nZofia Kowalczyk keeps shouting at me. Thanks"
    spans = [
        span_of(text, "Zofia Kowalczyk", "PERSON"),
        span_of(text, "keeps shouting at me", "CONDUCT"),
    ]
    assert rule.apply(text, spans) == spans


def test_a_greeting_opening_the_sentence_stays_outside_the_sentence_replaced():
    text = "To whom it may concern, the storage room is used for smoking by the crew.\nAnna"
    at = text.index("is used")
    (span,) = rule.apply(text, [Span(at, text.index("crew") + 4, "CONDUCT", "ner")])
    assert text[span.start : span.end] == "the storage room is used for smoking by the crew."


def test_a_gerund_after_a_preposition_stays_a_predicate():
    text = "Hi,\nI'd like to report my supervisor for shouting at me in front of customers.\nElena"
    spans = [span_of(text, "shouting at me in front of customers", "CONDUCT")]
    assert rule.apply(text, spans) == spans


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        ("Lately I have been receiving calls at work.", "have been receiving calls at work"),
        ("It is extremely distracting to be called at work.", "distracting to be called at work"),
    ],
)
def test_the_writers_own_acts_and_what_is_no_predicate_become_the_sentence(sentence, clause):
    text = f"Hi HR,\n{sentence} Please help.\nAnna"
    at = text.index(clause)
    (span,) = rule.apply(text, [Span(at, at + len(clause), "CONDUCT", "ner")])
    assert text[span.start : span.end] == sentence
