"""Dates a CV writes without a day (synth.deid.lexicon.years): moved back the
document's whole years in their own form, every interval and the order kept, never
after this year; a DATE span read as no date is never given random digits (issue 93:
"2016 to 2017" became "9557 to 2699", "Summer 2018" "Summer 1516")."""

import datetime as dt
import re

import pytest

from synth.calendar import ordinal
from synth.deid.anonymizer.surrogates import Surrogates
from synth.deid.lexicon.years import moved_years
from synth.deid.spans import Span


def _years(text: str) -> list[int]:
    return [int(y) for y in re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", text)]


def test_month_year_to_month_year_moves_with_its_interval_kept():
    for doc in range(20):
        s = Surrogates(0, f"cv-{doc}")
        moved = s.replace("DATE", "Jan 2016 to Mar 2017")
        m = re.fullmatch(r"Jan (\d{4}) to Mar (\d{4})", moved)
        assert m, moved
        start, end = int(m[1]), int(m[2])
        assert end - start == 1 and start == 2016 - s.years_back  # 14 months, as written
        assert 10 <= s.years_back <= 19


@pytest.mark.parametrize(
    ("written", "moved"),  # years_back 10
    [
        ("January 2016 - March 2017", "January 2006 - March 2007"),
        ("Summer 2018", "Summer 2008"),
        ("Sept. 2018 – till date", "Sept. 2008 – till date"),
        ("2016-Present", "2006-Present"),
        ("from 2015 till date", "from 2005 till date"),
        ("07/2020", "07/2010"),
        ("2020/07", "2010/07"),
        ("12/2019 to 03/2021", "12/2009 to 03/2011"),
        ("Mar'17 - Jun'19", "Mar'07 - Jun'09"),
        ("Aug19 - Present", "Aug09 - Present"),
        ("Fall '18", "Fall '08"),
        ("2016-19", "2006-09"),
        ("Q3 2019", "Q3 2009"),
        ("2016", "2006"),
    ],
)
def test_every_form_a_cv_writes_moves_in_its_form(written, moved):
    assert moved_years(written, 10) == moved


@pytest.mark.parametrize("other", ["Covid-19", "Win32", "3 March 2019", "192.168.1.1", "today"])
def test_what_is_not_a_dayless_date_is_left_to_the_other_readers(other):
    assert moved_years(other, 10) is None


def test_no_date_replacement_has_an_impossible_year():
    """Over 200 documents and the forms above, every year written is between 1900 and
    this year, and no four-digit number appears that was not a year moved."""
    forms = ["Jan 2016 to Mar 2017", "Summer 2018", "2016 - Present", "Mar'17", "2001-2004",
             "June 2010 – May 2012", "Aug19", "Q3 2019", "since 2024"]  # fmt: skip
    this_year = dt.date.today().year
    for doc in range(200):
        s = Surrogates(1, f"d{doc}")
        for form in forms:
            out = s.replace("DATE", form)
            assert all(1900 <= y <= this_year for y in _years(out)), (form, out)
            assert len(_years(out)) == len(_years(form))


def test_a_date_it_cannot_read_is_tagged_and_the_note_says_so():
    s = Surrogates(0, "d")
    assert s.replace("DATE", "week 77 of the plan") == "[DATE]"
    assert s.notes[("DATE", "week 77 of the plan")] == "not a date this reads: tagged [DATE]"
    assert s.replace("DATE", "Christmas") == "Christmas"
    assert "words kept" in s.notes[("DATE", "christmas")]
    today = dt.date.today()  # a day alone is read in this month, as a ticket means it
    moved = dt.date(today.year, today.month, 15) + s.date_offset
    assert s.replace("DATE", "the 15th") == f"the {ordinal(moved.day)}"


def test_explain_says_what_an_unread_date_became():
    from synth.deid.pipeline import deidentify

    class Fixed:
        """A detector whose answer is given (the test is about the explain row)."""

        def detect(self, texts):
            return [[Span(t.index("week"), t.index("week") + 19, "DATE", "given")] for t in texts]

    text = "I start in week 77 of the plan and stay."
    (done,) = deidentify(["a"], [text], [Fixed()], "surrogate", 0, explain=True)
    assert done.text == "I start in [DATE] and stay."
    (row,) = done.decisions
    assert row["rules"][-1] == "surrogate: not a date this reads: tagged [DATE]"
