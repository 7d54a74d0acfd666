"""CV extraction: the rules on small cases, and P/R on our hand-labelled CVs."""

import json

import pytest

from eval.extraction import read_labelled, score
from synth import ConfigError
from synth.kinds.cvs.extract.attributes import extract, time_expressions, units
from synth.kinds.cvs.extract.corpus import clean_text, read_corpus
from synth.kinds.cvs.extract.table import GENERIC_COMPANY, OTHER_UNIVERSITY, build_table, to_row
from synth.nlp import load_nlp
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data"


@pytest.fixture(scope="module")
def nlp():
    return load_nlp()


@pytest.mark.component("spaCy extraction")
def test_hand_labelled_cvs_meet_the_stated_precision_and_recall(nlp):
    # README "CV extraction" states these floors; the measured values are in
    # benchmarks/results/extraction.json.
    for file, floor, years_floor in (
        ("cvs_small.jsonl", 0.95, 0.9),
        ("cvs_heldout.jsonl", 0.9, 0.8),
        ("cvs_layouts.jsonl", 0.9, 0.9),  # anonymised, Europass, one-line and pipe layouts
        ("cvs_flat.jsonl", 0.95, 0.95),  # one flat block each, as job boards are scraped
    ):
        r = score(read_labelled(DATA / file), nlp, as_of=2024)
        assert r["cvs"] >= 10
        for key in ("university", "university_degree", "company"):
            assert r[key]["precision"] >= floor and r[key]["recall"] >= floor, (file, key, r[key])
        assert r["company_years"]["recall"] >= years_floor, (file, r["company_years"])
        assert r["total_years"]["within_one_year"] >= years_floor, (file, r["total_years"])


def test_flat_cvs_are_read_as_lines(nlp):
    """A CV scraped without line breaks: headings inline, jobs as 'title employer - place
    dates', the skills' years not jobs, a degree's field not part of the university."""
    text = (
        "Java Developer Java Developer - Acme Payments Dallas, TX * Six plus years of "
        "experience in Java and Spring. Work Experience Senior Java Developer Acme Payments - "
        "Dallas, TX March 2019 to Present * Built settlement services * Wrote Kafka consumers "
        "Research Assistant Rice University - Houston, TX June 2016 to February 2019 * Ran "
        "lab servers Education Master of Science in Computer Science University of Houston - "
        "Houston, TX 2014 to 2016 Skills Java (6 years), Spring (4 years), Kafka (3 years)"
    )
    x = extract(clean_text(text), nlp, as_of=2024)
    assert x.companies == [("Acme Payments", 5), ("Rice University", 3)]
    assert x.universities == [("University of Houston", "Master's")]
    assert x.total_years == 6


def test_anonymised_employers_are_jobs_not_names(nlp):
    """'Company Name － City , State' placeholders: each is one job with its years, and
    nothing else on those lines ('State', a title) is taken for an employer."""
    text = (
        "Experience\n01/2017 to Current\nSenior Accountant\nCompany Name － City , State\n"
        "Prepared statements.\n05/2014 to 12/2016\nStaff Accountant\nCompany Name － City , State\n"
        "Relationship Manager 10/2012 to Current Current Company Name ï¼ City , State\n"
    )
    x = extract(text, nlp, as_of=2024)
    assert x.companies == [(GENERIC_COMPANY, 7), (GENERIC_COMPANY, 3), (GENERIC_COMPANY, 12)]


def test_numeric_dates_give_years():
    text = "10/2012 to 11/2015; 01/03/2016 – 31/08/2021; 2019-07 to 2024-06; 06/2020 - Current"
    years = [n for *_, n in time_expressions(text, 0, len(text), 2024)]
    assert years == [3, 6, 5, 4]


def test_titles_and_degree_lines_are_not_employers(nlp):
    text = (
        "Associate Attorney | Baker McKenzie LLP | Chicago, IL | 2018 – Present\n"
        "Amazon — Seattle, WA\nData Scientist II, Jun 2019 – Present\n"
        "2012 – 2014 Master's degree in Mechanical Engineering\nPolitecnico di Milano\n"
        "01/09/2021 – Present Senior Software Engineer\nSAP SE, Walldorf (Germany)\n"
    )
    x = extract(text, nlp, as_of=2024)
    assert [name for name, _ in x.companies] == ["Baker McKenzie", "Amazon", "SAP"]
    assert x.universities == [("Politecnico di Milano", "Master's")]


def test_the_corpus_has_at_least_30_labelled_cvs_over_several_roles():
    records = read_labelled(DATA / "cvs_small.jsonl")
    assert len(records) >= 30 and len({r["label"] for r in records}) >= 5


def test_degree_from_the_count_rule_and_ages_are_not_years(nlp):
    x = extract(
        "Studied at Anna University and then at University of Leeds. I am 31 years "
        "old. Worked at Wipro for 4 years.",
        nlp,
        as_of=2024,
    )
    assert x.universities == [
        ("Anna University", "Bachelor's"),
        ("University of Leeds", "Master's"),
    ]
    assert x.companies == [("Wipro", 4)] and x.total_years == 4


def test_school_lines_and_skill_lines_are_skipped(nlp):
    text = (
        "Education Details \nJanuary 2010 H.S.C. Mumbai, Maharashtra MUMBAI UNIVERSITY\n"
        "Skill Details \nOracle- Exprience - 24 months\n"
    )
    x = extract(text, nlp, as_of=2024)
    assert x.universities == [] and x.companies == []


def test_time_expressions_cover_ranges_months_and_open_ends():
    text = "Jan 2018 - Dec 2021; 2020 to present; since 2022; 6 months"
    years = [n for *_, n in time_expressions(text, 0, len(text), 2024)]
    assert years == [4, 4, 2, 1]


def test_html_is_stripped_into_lines():
    text = clean_text("<p>A</p><ul><li>B &amp; C</li></ul>")
    assert "<" not in text and [line for line in text.splitlines() if line] == ["A", "B & C"]
    assert [clean_text("x\n<br>y")[s:e] for s, e in units(clean_text("x\n<br>y"))] == ["x", "y"]


def test_rare_names_are_generalised(nlp):
    rows = [
        to_row("HR", extract(r["text"], nlp, 2024)) for r in read_labelled(DATA / "cvs_small.jsonl")
    ]
    table, stats = build_table(rows, min_count=5)
    assert "Infosys" in set(table["company_1"]) | set(table["company_2"])
    assert GENERIC_COMPANY in set(table["company_1"])
    assert OTHER_UNIVERSITY in set(table["university_1"]) | set(table["university_2"])
    assert stats["rare_companies"] > 0 and stats["cvs"] == 30


def test_corpus_reader_names_the_missing_column(tmp_path):
    bad = tmp_path / "cvs.jsonl"
    bad.write_text(json.dumps({"body": "x", "label": "HR"}) + "\n")
    with pytest.raises(ConfigError, match="no text column"):
        read_corpus(bad)
    dup = tmp_path / "dup.csv"
    dup.write_text("Category,Resume\nHR,same text\nHR,same text\nSales,other\n")
    assert len(read_corpus(dup)) == 2 and len(read_corpus(dup, dedupe=False)) == 3
