"""The `parts` rule (synth/deid/analyzer/rules/parts.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

from synth.deid.analyzer.rules import decided
from synth.deid.analyzer.rules import parts as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import span_of


def test_a_cv_lines_separator_cuts_a_name_in_two():
    found = rule.apply("Amazon - Seattle", [Span(0, 16, "ORGANIZATION", "p")])
    assert found == [Span(0, 6, "ORGANIZATION", "p"), Span(9, 16, "ORGANIZATION", "p")]


def test_a_name_type_span_holding_two_things_is_cut_and_each_part_typed():
    text = "Engineer at Amazon - Seattle, WA (2021-02 - 2022-03)\n\nSKILLS\nEXPERIENCE\nx"
    spans = decided(text, [span_of(text, "Amazon - Seattle, WA", "ORGANIZATION")])
    assert [(text[s.start : s.end], s.type) for s in spans] == [
        ("Amazon", "ORGANIZATION"),
        ("Seattle, WA", "LOCATION"),
        ("2021-02 - 2022-03", "DATE"),  # the range, one span (cv_facts)
    ]
    across = "I work in Munich\n\nTechnical skills"
    (cut,) = decided(across, [span_of(across, "Munich\n\nTechnical", "ORGANIZATION")])
    assert across[cut.start : cut.end] == "Munich" and cut.type == "LOCATION"
    wrapped = "BSc; University of\n    Bologna, 2012"
    (whole,) = decided(wrapped, [span_of(wrapped, "University of\n    Bologna", "ORGANIZATION")])
    assert wrapped[whole.start : whole.end] == "University of\n    Bologna"
