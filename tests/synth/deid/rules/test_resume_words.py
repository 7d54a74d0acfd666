"""The `resume_words` rule (synth/deid/analyzer/rules/resume_words.py): in a CV, skills,
degrees, titles, headings, bullets and technologies are left as written, a span holding
a name is not, and outside a CV the rule does nothing."""

import pytest

from synth.deid.analyzer.rules import resume_words as rule
from synth.deid.analyzer.rules.resume_words import describes_work
from tests.synth.deid.rules.through_rules import shared, span_of

OWNER = "Ana Souza"
CV = (
    "Ana Souza\n\nSkills\n------\nFormal Concept Analysis, Machine Learning, CI/CD, Java 8\n\n"
    "Experience\n----------\n• Experienced Project Guide at Zensol Automation, Montréal (2019)\n"
    "Requirements gathering weekly; cut build times by 90%\n\n"
    "Education\n---------\nBachelor of Software Engineering, 2016\n"
)


@pytest.mark.parametrize(
    "words, type_",
    [
        ("Formal Concept Analysis", "ORGANIZATION"),  # a skill list's skills
        ("Machine Learning", "PERSON"),
        ("CI/CD", "ORGANIZATION"),
        ("Java 8", "PERSON"),  # a technology and its version
        ("Skills", "ORGANIZATION"),  # a heading
        ("• Experienced", "PERSON"),  # a bullet's word
        ("Project Guide", "ORGANIZATION"),  # a job title
        ("Requirements", "ORGANIZATION"),
        ("Bachelor of Software Engineering", "ORGANIZATION"),  # a degree
        ("weekly", "DATE"),  # how often, not when
        ("90%", "PERCENT"),
    ],
)
def test_a_resumes_own_words_are_kept_in_a_cv(words, type_):
    out, key = shared(CV, [span_of(CV, words, type_)])
    # the owner's name and the years are replaced whatever was found (cv_owner, cv_facts)
    assert words in out and [k["original"] for k in key] == [OWNER, "2019", "2016"], (words, key)


@pytest.mark.parametrize(
    "words, type_",
    [
        ("Zensol Automation", "ORGANIZATION"),  # an employer
        ("Montréal", "LOCATION"),
        ("2016", "DATE"),  # a year is the owner's date
    ],
)
def test_what_names_the_owner_is_still_replaced(words, type_):
    out, key = shared(CV, [span_of(CV, words, type_)])
    assert words not in out and words in [k["original"] for k in key], key


def test_a_span_holding_a_name_among_skills_is_replaced_whole():
    assert not describes_work("Machine Learning with Dorota Kowalska", "ORGANIZATION")
    assert not describes_work("Oracle SQL", "ORGANIZATION")  # an employer's name is no skill


def test_outside_a_cv_the_rule_leaves_every_span():
    ticket = "Hi HR, my Machine Learning course runs weekly. Thanks"
    spans = [span_of(ticket, "Machine Learning", "ORGANIZATION"), span_of(ticket, "weekly", "DATE")]
    assert rule.apply(ticket, spans) == spans


def test_a_name_read_again_in_a_cv_keeps_its_skill_words():
    """`Java` found again after a person span took it ("Java EE JAX-WS") stays: the rule
    finishes after the name parts are found."""
    cv = CV + "\nProjects\n--------\nJava EE JAX-WS services; Java on Linux\n"
    spans = [span_of(cv, "Java EE JAX-WS", "PERSON")]
    out, key = shared(cv, spans)
    assert "Java on Linux" in out and "Java 8" in out, out
    assert [k["original"] for k in key] == [OWNER, "2019", "2016", "Java EE JAX-WS"], key


def test_a_date_of_digits_alone_is_still_a_date():
    assert not describes_work("11/14/23", "DATE") and describes_work("every 2 weeks", "DATE")
