"""The `again` rule (synth/deid/analyzer/rules/again.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

from synth.deid.analyzer.rules import again as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of


def test_an_organisation_is_marked_again_where_it_is_written_again():
    found = rule.apply("Acme Corp hired me. Acme Corp is great", [Span(0, 9, "ORGANIZATION", "p")])
    assert found == [Span(0, 9, "ORGANIZATION", "p"), Span(20, 29, "ORGANIZATION", "found again")]


def test_an_organisation_found_once_is_replaced_wherever_it_stands():
    cv = "EXPERIENCE\nEngineer at Zipscene, 2013-2018.\nZipscene was bought by NCR.\n\nEDUCATION\nx"
    out, key = shared(cv, [span_of(cv, "Zipscene", "ORGANIZATION")])
    assert (
        "Zipscene" not in out
        and len({k["replacement"] for k in key if k["type"] == "ORGANIZATION"}) == 1
    )
