"""Surrogates: consistent within a document, independent across documents, dates moved
by one offset in their own form, money and percentages in range and in their format."""

import datetime as dt
import re

import pytest

from synth.deid.surrogates import Surrogates, shift_date
from synth.docs.tickets.forms import read_amount


def test_the_same_string_gets_the_same_fake_throughout_a_document():
    s = Surrogates(0, "doc-1")
    first = s.replace("PERSON", "Paul Martin")
    assert s.replace("PERSON", "paul  martin") == first  # case and spacing do not matter
    assert s.replace("PERSON", "Paul") == first.split()[0]  # the first name pairs with it
    assert s.replace("LOCATION", "Hamburg") == s.replace("LOCATION", "Hamburg")
    assert s.replace("LOCATION", "Hamburg") != "Hamburg"


def test_documents_are_independent_and_reproducible():
    names = {Surrogates(0, f"doc-{i}").replace("PERSON", "Paul Martin") for i in range(20)}
    assert len(names) >= 18  # 20 independent draws from Faker's thousands of names
    assert Surrogates(0, "doc-1").replace("EMAIL", "a@b.com") == Surrogates(0, "doc-1").replace(
        "EMAIL", "a@b.com"
    )
    assert Surrogates(0, "doc-1").date_offset != Surrogates(0, "doc-2").date_offset or (
        Surrogates(0, "doc-1").money_factor != Surrogates(0, "doc-2").money_factor
    )


def test_dates_keep_their_interval_and_their_form():
    s = Surrogates(3, "doc-7", country="GB")  # day first
    start, end = s.replace("DATE", "03/06/2027"), s.replace("DATE", "17/06/2027")
    assert re.fullmatch(r"\d{2}/\d{2}/2\d{3}", start) and re.fullmatch(r"\d{2}/\d{2}/2\d{3}", end)
    read = [dt.datetime.strptime(x, "%d/%m/%Y").date() for x in (start, end)]
    assert (read[1] - read[0]).days == 14
    assert read[0] - dt.date(2027, 6, 3) == s.date_offset != dt.timedelta(0)


@pytest.mark.parametrize(
    "written, moved",
    [
        ("03/06/2027", "03/16/2027"),  # month first (US)
        ("3/6", "3/16"),
        ("2027-03-06", "2027-03-16"),
        ("06.03.2027", "16.03.2027"),
        ("March 6, 2027", "March 16, 2027"),
        ("6 March 2027", "16 March 2027"),
        ("the 6th of March", "the 16th of March"),
        ("6 of march", "16 of march"),
        ("Mar 6", "Mar 16"),
        ("next Monday", "next Thursday"),
    ],
)
def test_every_written_date_form_moves_in_its_form(written, moved):
    month_first = "." not in written
    assert shift_date(written, dt.timedelta(days=10), month_first) == moved


def test_money_is_scaled_within_range_in_its_own_format():
    s = Surrogates(1, "doc-3")
    for original in ("€45,400", "45400 euros", "$47.5k", "45.400 €", "45k"):
        fake = s.replace("MONEY", original)
        assert fake != original
        ratio = read_amount(fake) / read_amount(original)
        assert 0.84 <= ratio <= 1.16, (original, fake)
        assert re.sub(r"[\d.,]", "", fake) == re.sub(r"[\d.,]", "", original)  # €, k, euros
        assert ("," in fake) == ("," in original) and ("." in fake) == ("." in original)


def test_percentages_move_a_few_points_and_stay_within_0_and_100():
    for doc in range(30):
        s = Surrogates(0, f"p{doc}")
        low, high = s.replace("PERCENT", "1%"), s.replace("PERCENT", "99.5 percent")
        assert 0 <= float(low[:-1]) <= 4 and low.endswith("%")
        assert high.endswith(" percent") and 96.5 <= float(high.split()[0]) <= 100


def test_ids_and_phones_keep_their_shape():
    fake = Surrogates(0, "x").replace("PHONE", "+49 170 1234567")
    assert re.fullmatch(r"\+\d\d \d{3} \d{7}", fake) and fake != "+49 170 1234567"
