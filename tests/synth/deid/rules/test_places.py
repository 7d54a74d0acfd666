"""The `places` rule (synth/deid/analyzer/rules/places.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

from synth.deid.analyzer.rules import decided
from synth.deid.analyzer.rules import places as rule
from synth.deid.anonymizer.surrogates import Surrogates
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of


def test_a_city_typed_as_an_organisation_is_a_place():
    found = rule.apply("I fly to Berlin soon", [Span(9, 15, "ORGANIZATION", "p")])
    assert [(s.start, s.end, s.type) for s in found] == [(9, 15, "LOCATION")]


def test_a_city_the_ner_calls_an_organisation_is_replaced_by_a_city():
    text = "I flew from Zagreb to Lisbon for the training on 3 March."
    spans = [span_of(text, "Zagreb", "ORGANIZATION"), span_of(text, "Lisbon", "PERSON")]
    out, key = shared(text, spans)
    assert [k["type"] for k in key] == ["LOCATION", "LOCATION"], key
    # drawn as a city is drawn (Faker's), not as a company
    assert key[0]["replacement"] == Surrogates(0, "d").replace("LOCATION", "Zagreb")
    assert key[0]["replacement"] != Surrogates(0, "d").replace("ORGANIZATION", "Zagreb")
    assert "Zagreb" not in out and "Lisbon" not in out
    # a first name that is also a city stays a person without a place's preposition
    named = "Please ask Florence about my refund."
    assert decided(named, [span_of(named, "Florence", "PERSON")])[0].type == "PERSON"
    assert decided(text, [span_of(text, "Zagreb", "ORGANIZATION")])[0].type == "LOCATION"


def test_a_university_named_after_its_city_is_an_organisation():
    text = "PhD, Università di Trento, 2019; BSc, University of\n    Bologna"
    spans = [span_of(text, "Trento", "LOCATION"), span_of(text, "Bologna", "LOCATION")]
    assert [(text[s.start : s.end], s.type) for s in decided(text, spans) if s.type != "DATE"] == [
        ("Università di Trento", "ORGANIZATION"),
        ("University of\n    Bologna", "ORGANIZATION"),
    ]


def test_an_airport_a_general_ner_calls_a_person_is_a_place():
    text = "I flew via Milan Malpensa Airport on Thursday."
    assert decided(text, [span_of(text, "Milan Malpensa Airport", "PERSON")])[0].type == "LOCATION"
