"""The `job_lines` rule (synth/deid/analyzer/rules/job_lines.py): in a CV, the employer a
job line names is replaced, found or not; a title or a skill is not an employer."""

import pytest

from synth.deid.analyzer.rules import job_lines as rule
from synth.deid.analyzer.rules.job_lines import job_lines
from tests.synth.deid.rules.through_rules import shared

HEAD = "Ana Souza\n\nExperience\n----------\n"
TAIL = "\n\nEducation\n---------\nBSc\n"


@pytest.mark.parametrize(
    "line, employer",
    [
        ("**Contract Data Engineer at PatientPoint**", "PatientPoint"),
        ("**Lead Developer - Pantaflix** (Berlin, Germany)", "Pantaflix"),
        ("**Software Engineer, VendNovation**, October 2011", "VendNovation"),
        ("*BI Developer [Qualfon](https://www.qualfon.com/)*", "Qualfon"),
        ("**ThoughtWorks:** (Jan 2015 - April 2019)", "ThoughtWorks"),
        ("**Statista (2024/03 – Present)**", "Statista"),
    ],
)
def test_the_employer_of_a_job_line_is_replaced(line, employer):
    cv = HEAD + line + TAIL
    out, key = shared(cv, [])
    assert employer not in out and employer in [k["original"] for k in key], (out, key)


def test_a_title_or_a_skill_is_no_employer():
    cv = (
        HEAD
        + "**Internship** (May 2018 - Nov 2018)\n**Senior Developer - Machine Learning**"
        + TAIL
    )
    assert job_lines(cv) == []


def test_outside_a_cv_nothing_is_added():
    ticket = "Hi HR, I was a Lead Developer - Pantaflix hired me in May 2018. Thanks"
    assert rule.apply(ticket, []) == []
