"""The `cv_owner` rule (synth/deid/analyzer/rules/cv_owner.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

from synth.deid.analyzer.rules import cv_owner as rule
from synth.deid.pipeline import deidentify
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared


def test_the_name_heading_a_cv_is_its_owner():
    cv = "Maria Rossi\nData Engineer\n\nEXPERIENCE\nAcme Corp, 2019-2022\n\nEDUCATION\n"
    cv += "University of Turin\n\nSKILLS\nPython"
    assert rule.apply(cv, []) == [Span(0, 11, "PERSON", "cv owner")]
    assert rule.apply("Maria Rossi asked for leave.", []) == []  # no CV


CV = (
    "Olusegun Adeyemi\nLagos | olu.adeyemi@example.com\n\nEXPERIENCE\nData analyst at a bank.\n"
    "\nEDUCATION\nBSc Economics, 2015\n\nSKILLS\nSQL, Excel"
)


def test_a_cvs_header_name_is_replaced(presidio_detectors):
    out, key = shared(CV, [])
    assert "Olusegun" not in out and "Adeyemi" not in out, out
    assert key[0]["type"] == "PERSON" and key[0]["original"] == "Olusegun Adeyemi"
    # through the job's path with real Presidio, and a `Name:` line
    named = CV.replace("Olusegun Adeyemi\n", "Name: Olusegun Adeyemi\n")
    done = deidentify(["a", "b"], [CV, named], presidio_detectors, "surrogate", 0)
    for result in done:
        assert "Olusegun" not in result.text and "Adeyemi" not in result.text, result.text
    # a job title in the header is no name, and a ticket gets no header rule
    titled = CV.replace("Olusegun Adeyemi", "Data Scientist")
    assert "Data Scientist" in shared(titled, [])[0]
    ticket = "Olusegun Adeyemi\nplease refund my flight."
    assert shared(ticket, [])[0] == ticket
