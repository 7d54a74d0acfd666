"""The `dates` rule (synth/deid/analyzer/rules/dates.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

import re

import pytest

from synth.deid.analyzer.analyze import merged
from synth.deid.analyzer.rules import dates as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of


def test_a_weekday_and_a_dotted_date_is_a_date_of_its_own():
    assert rule.apply("Off on Fri 12.03. all day", []) == [Span(7, 17, "DATE", "dates")]


@pytest.mark.parametrize("date", ["Fri 12.03.", "Thurs. 3.6.", "Mon, 14.10.2024", "12.03.2024"])
def test_a_weekday_with_a_dotted_date_is_replaced_by_a_date(date):
    text = f"I was off sick on {date} and came back after."
    spans = [span_of(text, date.split()[-1], "ORGANIZATION")]  # what a general NER reads
    _, key = shared(text, spans)
    assert [k["type"] for k in key] == ["DATE"] and key[0]["original"] == date.rstrip(), key
    new = key[0]["replacement"]
    assert new != date
    assert re.fullmatch(r"(?:[A-Z][a-z]+\.?,? )?\d{1,2}\.\d{1,2}\.(?:\d{4})?", new), new
    # no detector at all: the form alone is a date
    assert [s.type for s in merged([text], [[]])[0]] == ["DATE"]
