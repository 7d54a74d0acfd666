"""The `shapes` rule (synth/deid/analyzer/rules/shapes.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

import pytest

from synth.deid.analyzer.rules import decided
from synth.deid.analyzer.rules import shapes as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of


def test_an_email_address_is_an_email_whatever_the_detector_said():
    found = rule.apply("mail a@b.com now", [Span(5, 12, "PERSON", "p")])
    assert [(s.start, s.end, s.type) for s in found] == [(5, 12, "EMAIL")]


@pytest.mark.parametrize(
    "words, typed, decided_as",
    [
        ("2016-2019", "PHONE", "DATE"),  # a range of years a general NER reads as a phone
        ("647-778-5978", "ID", "PHONE"),
        ("ana.souza@example.org", "URL", "EMAIL"),
        ("github.com/asouza", "ORGANIZATION", "URL"),
        ("three days", "DATE", "SPAN_OF_TIME"),
        ("the past 4 months", "DATE", "SPAN_OF_TIME"),
        ("Missouri State University", "PERSON", "ORGANIZATION"),
        ("Maria Rossi", "ORGANIZATION", "PERSON"),
    ],
)
def test_a_span_with_a_shape_or_words_of_its_own_gets_their_type(words, typed, decided_as):
    text = f"Note: {words} here."
    assert [s.type for s in decided(text, [span_of(text, words, typed)])] == [decided_as]


def test_a_unit_of_time_alone_is_left_as_written():
    """Issue 83: "how many days" became "how many a couple of weeks"."""
    text = "Hi HR, how many days of leave do I have left? I took 3 days in May."
    spans = [span_of(text, "days", "SPAN_OF_TIME"), span_of(text, "3 days", "SPAN_OF_TIME")]
    out, key = shared(text, spans)
    assert out.startswith("Hi HR, how many days of leave") and "3 days" not in out, out
    assert [k["original"] for k in key] == ["3 days"], key
