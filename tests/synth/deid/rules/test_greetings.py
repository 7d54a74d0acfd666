"""The `greetings` rule (synth/deid/analyzer/rules/greetings.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

import pytest

from synth.deid.analyzer.rules import greetings as rule
from synth.deid.analyzer.rules.greetings import greeting_regions
from synth.deid.pipeline import deidentify
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of


def test_a_span_inside_a_greeting_is_dropped():
    assert rule.apply("Dear HR Department,\nHi", [Span(0, 18, "ORGANIZATION", "p")]) == []


GREETINGS = [
    ("Dear All,\nI need to change my shift next week.", "Dear All", "ORGANIZATION"),
    ("Good morning,\nmy salary is below the band.", "Good morning", "ORGANIZATION"),
    ("Dear HR Department,\nplease refund my flight.", "Dear HR Department", "ORGANIZATION"),
    ("Please refund my flight.\n\nKind Regards,\nAnna", "Kind Regards", "ORGANIZATION"),
    ("Hi team - my son is ill today.\nBest regards", "Best regards", "PERSON"),
    ("Dear Sir or Madam,\nmy pay is late.", "Sir or Madam", "PERSON"),
]
# Issue 83: the forms people type that the human tickets held and lost to a company name.
TYPED_GREETINGS = [
    ("Goodmorning,\nmy salary is below the band.", "Goodmorning", "ORGANIZATION"),
    ("goodmorning HR team\nmy salary is below the band.", "goodmorning HR team", "PERSON"),
    ("GOOD MORNING,\nmy pay is late.", "GOOD MORNING", "ORGANIZATION"),
    ("Please refund my flight.\nKind Regards\nAnna Lee", "Kind Regards", "ORGANIZATION"),
    ("Please refund my flight.\nBest Regards\n\nAnna", "Best Regards", "ORGANIZATION"),
    ("Please refund my flight.\nKINDREGARDS\nAnna", "KINDREGARDS", "ORGANIZATION"),
    ("Please refund my flight. Kind Regards, Anna", "Kind Regards", "ORGANIZATION"),
    ("I need the form by Friday! best regards Anna Lee", "best regards", "ORGANIZATION"),
    ("Can you help? Thank you in advance.\nMark", "Thank you in advance", "ORGANIZATION"),
]


@pytest.mark.parametrize("text, greeting, type_", GREETINGS + TYPED_GREETINGS)
def test_a_greeting_is_never_replaced(text, greeting, type_):
    """The greeting stays as written; what is replaced is only the name a sign-off
    carries (the `addressed` rule: a name after a sign-off is a person)."""
    out, key = shared(text, [span_of(text, greeting, type_)])
    assert greeting in out, (out, key)
    assert all(k["type"] == "PERSON" and k["original"] in ("Anna", "Anna Lee", "Mark") for k in key)


def test_a_sign_off_keeps_the_name_after_it_replaceable():
    text = "Please refund my flight. Kind Regards, Anna"
    out, key = shared(text, [span_of(text, "Kind Regards, Anna", "ORGANIZATION")])
    assert "Kind Regards, " in out and "Anna" not in out, out
    assert [k["original"] for k in key] == ["Anna"], key


def test_thanks_inside_a_sentence_is_not_a_sign_off():
    text = "Thanks to Anna Lee my leave was approved."
    assert greeting_regions(text) == []


def test_a_greeting_keeps_the_name_it_holds_as_a_person():
    text = "Dear Anna,\nmy flight was cancelled."
    out, key = shared(text, [span_of(text, "Dear Anna", "ORGANIZATION")])
    assert out.startswith("Dear ") and "Anna" not in out
    assert [k["type"] for k in key] == ["PERSON"], key


def test_greetings_on_real_presidio(presidio_detectors):
    """What Presidio reads in greetings and sign-offs (names aside) is left as written."""
    texts = [text for text, _, _ in GREETINGS] + ["Good Morning Team,\nThank you. Kind Regards"]
    done = deidentify(
        [str(i) for i in range(len(texts))], texts, presidio_detectors, "surrogate", 0
    )
    for text, result in zip(texts, done):
        for a, b in greeting_regions(text):
            assert text[a:b] in result.text, (text, result.text)


def test_a_clause_never_starts_in_a_greeting():
    text = "Hi HR, my colleague keeps shouting at me in meetings. Thanks"
    clause = span_of(text, "Hi HR, my colleague keeps shouting at me in meetings", "CONDUCT")
    out, key = shared(text, [clause])
    assert out.startswith("Hi HR, "), out
    assert all(not k["original"].startswith("Hi") for k in key), key
