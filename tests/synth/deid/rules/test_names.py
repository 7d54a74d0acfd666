"""The `names` rule (synth/deid/analyzer/rules/names.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

from synth.deid.analyzer.rules import decided
from synth.deid.analyzer.rules import names as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import span_of


def test_an_organisations_word_makes_a_person_an_organisation():
    found = rule.apply("at Missouri State University", [Span(3, 28, "PERSON", "p")])
    assert [s.type for s in found] == ["ORGANIZATION"]


def test_in_a_cv_a_single_unknown_word_typed_person_is_the_employer():
    cv = "EXPERIENCE\nSenior Architect at Zipscene, 2013-2018\n\nEDUCATION\nBSc, 2012"
    (span, *_) = decided(cv, [span_of(cv, "Zipscene", "PERSON")])
    assert span.type == "ORGANIZATION"
    ticket = "My manager Zipscene keeps shouting at me."
    assert decided(ticket, [span_of(ticket, "Zipscene", "PERSON")])[0].type == "PERSON"
