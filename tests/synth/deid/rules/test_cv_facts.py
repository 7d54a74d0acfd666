"""The `cv_facts` rule (synth/deid/analyzer/rules/cv_facts.py): in a CV, every date as a
CV writes it and every listed employer and university is replaced, found by a detector
or not; a technology's version year is not; outside a CV nothing is added."""

from synth.deid.analyzer.rules import cv_facts as rule
from tests.synth.deid.rules.through_rules import shared

CV = (
    "Ana Souza\n\nExperience\n----------\n02.2021 - 10.2019: engineer at Accenture\n"
    "Apr 2017 to Jan 2020, Summer 2019, 2016-Present: Windows 2000 and SQL Server 2016 admin\n"
    "\nEducation\n---------\nUniversity of Pune, 05/2014\n"
)


def test_a_cvs_dates_and_listed_employers_are_replaced_unfound():
    out, key = shared(CV, [])
    replaced = [k["original"] for k in key]
    for value in ("02.2021 - 10.2019", "Apr 2017 to Jan 2020", "Summer 2019", "2016-Present"):
        assert value in replaced and value not in out, (value, replaced)
    assert "Accenture" in replaced and "University of Pune" in replaced
    assert "05/2014" in replaced
    # a technology's version is not the owner's date
    assert "Windows 2000" in out and "SQL Server 2016" in out, out


def test_outside_a_cv_nothing_is_added():
    ticket = "Hi HR, I worked at Accenture from Apr 2017 to Jan 2020. Thanks"
    assert rule.apply(ticket, []) == []
