"""The `technologies` rule (synth/deid/analyzer/rules/technologies.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

from synth.deid.analyzer.rules import decided
from synth.deid.analyzer.rules import technologies as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import span_of


def test_a_technology_is_no_ones_data():
    assert rule.apply("I use Python daily", [Span(6, 12, "ORGANIZATION", "p")]) == []
    kept = [Span(6, 12, "PERSON", "p")]
    assert rule.apply("I met Dorota daily", kept) == kept


def test_technologies_a_cv_lists_are_left_as_written():
    cv = "SKILLS\nLanguages: C++, Java, Python, GNU/Linux\n\nEXPERIENCE\nOracle, 2019"
    spans = [span_of(cv, w, t) for w, t in (("C++", "ORGANIZATION"), ("GNU/Linux", "PERSON"))]
    spans += [span_of(cv, "Java, Python", "ORGANIZATION"), span_of(cv, "Oracle", "ORGANIZATION")]
    kept = [cv[s.start : s.end] for s in decided(cv, spans) if s.type != "DATE"]
    assert kept == ["Oracle"]  # an employer that is a technology's name too is replaced
