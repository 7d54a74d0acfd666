"""A keep-rule never keeps a person (issue 93, probe 9's TECH1-3, GREET1-2, REF1, CAPS2):
the `addressed` rule (synth/deid/analyzer/rules/addressed.py) and the keep-rules that
yield to it (technologies, resume_words), on spans as a detector gives them and through
Presidio."""

import pytest

from synth.deid.analyzer.rules import addressed as rule
from synth.deid.pipeline import deidentify
from tests.synth.deid.rules.through_rules import shared, span_of

CV = (
    "Ruby Swift\nJava Developer\n\nSkills\nRuby, Swift, Scala, Julia\n\nExperience\n"
    "Jan 2016 to Mar 2017 Software Engineer at Infosys\n\nEducation\nB.Tech, 2015"
)


@pytest.mark.parametrize(
    ("text", "name", "type_"),
    [
        ("Hi HR,\nmy colleague Julia Rust keeps shouting at me.", "Julia Rust", "ORGANIZATION"),
        ("Please fix my payslip.\nThanks, Julia", "Julia", "ORGANIZATION"),
        ("Please fix my payslip.\nRegards,\nScala Swift", "Scala Swift", "PERSON"),
        ("Referees\nJune Florence, Infosys, Pune", "June Florence", "PERSON"),
        (CV, "Ruby Swift", "PERSON"),
    ],
)
def test_a_name_of_technologies_where_a_person_stands_is_replaced(text, name, type_):
    out, key = shared(text, [span_of(text, name, type_, "presidio")])
    assert name not in out, out
    assert [k["type"] for k in key if k["original"] == name] == ["PERSON"]


def test_technologies_where_no_person_stands_are_still_kept():
    out, _ = shared(CV, [span_of(CV, "Ruby, Swift, Scala, Julia", "ORGANIZATION", "presidio")])
    assert "Ruby, Swift, Scala, Julia" in out


@pytest.mark.parametrize(
    ("text", "name"),
    [("Dear Ms Ruby Chen,\nmy pay is late.", "Ruby Chen"), ("Hi Ruby,\nmy pay is late.", "Ruby")],
)
def test_a_name_after_a_salutation_no_detector_found_is_added(text, name):
    (span,) = rule.apply(text, [])
    assert (text[span.start : span.end], span.type, span.detector) == (
        name,
        "PERSON",
        rule.DETECTOR,
    )
    out, key = shared(text, [])
    assert name not in out and [k["original"] for k in key] == [name]


@pytest.mark.parametrize(
    "text",
    [
        "Dear Sir/Madam,\nmy pay is late.",
        "Dear Sir or Madam,\nmy pay is late.",
        "Dear Hiring Manager,\nplease find my CV.",
        "Hi Team,\nmy pay is late.",
        "MS Student at the Indian Institute of Science",
    ],
)
def test_a_greetings_own_words_and_a_degree_are_no_one(text):
    assert rule.apply(text, []) == []
    out, key = shared(text, [])
    assert out == text and key == []


@pytest.mark.parametrize("acronym", ["PTO", "FMLA", "SAP", "ADA", "Pto"])
def test_acronyms_the_lexicon_lists_stay_in_any_case(acronym):
    text = f"I would like to use my {acronym} days next week."
    out, key = shared(text, [span_of(text, acronym, "ORGANIZATION", "presidio")])
    assert acronym in out and key == []


def test_a_clause_in_capitals_is_no_organisation():
    text = "Hi,\nTHE SAP SCREEN SHOWS ZERO for my leave.\nTom"
    out, _ = shared(text, [span_of(text, "THE SAP SCREEN SHOWS ZERO", "ORGANIZATION", "presidio")])
    assert "THE SAP SCREEN SHOWS ZERO" in out


def test_through_presidio_the_probe_cases_leak_no_one(presidio_detectors):
    texts = [
        "Hi HR,\nmy colleague Julia Rust keeps shouting at me in meetings.\nThanks, Julia",
        "Dear Ms Ruby Chen,\nI would like to request PTO under FMLA next week.\nRegards,\nScala Swift",
        "Dear Sir/Madam,\nHi Ruby, I mean. The SAP screen shows zero.",
        CV,
    ]
    a, b, c, d = (
        x.text for x in deidentify(list("abcd"), texts, presidio_detectors, "surrogate", 0)
    )
    assert "Julia" not in a and "Rust" not in a, a
    assert "Ruby" not in b and "Chen" not in b and "Scala" not in b and "Swift" not in b, b
    assert "PTO" in b and "FMLA" in b
    assert c.startswith("Dear Sir/Madam,") and "Ruby" not in c, c
    assert not d.startswith("Ruby Swift") and "Ruby, Swift, Scala, Julia" in d, d
