"""Surface forms: every form of every kind reads back to the value it was rendered from."""

import datetime as dt

import numpy as np
import pytest

from synth.kinds.persona import load_countries
from synth.kinds.tickets import forms
from synth.kinds.tickets.forms import Writer, allowed, load_catalogue, render, render_values
from tests.synth.kinds.tickets import form_readers as readers

REF = dt.date(2026, 11, 24)  # a Tuesday
WRITERS = [Writer(code, c.locale, REF) for code, c in load_countries().items()]


def sampled_dates(writer: Writer) -> list[str]:
    """Dates as the samplers write them, from 60 days before to 300 after the reference."""
    mdy = load_countries()[writer.country_code].date_order == "mdy"
    days = [
        REF + dt.timedelta(days=k)
        for k in (-60, -8, -7, -3, -1, 0, 1, 2, 5, 6, 7, 10, 13, 14, 20, 27, 28, 40, 120, 160, 300)
    ]
    return [f"{d:%B} {d.day}, {d.year}" if mdy else f"{d.day} {d:%B} {d.year}" for d in days]


def sampled_values(kind: str, writer: Writer) -> list[str]:
    symbol = load_countries()[writer.country_code].currency
    catalogue = load_catalogue()
    return {
        "date": sampled_dates(writer),
        "day_count": ["1 day", "2 days", "3 days", "7 days", "14 days", "15 days", "21 days"],
        "stay": ["5 days", "7 days", "14 days", "2 weeks", "8 weeks", "2 months", "6 months"],
        "money": [f"{symbol}47,500", f"{symbol}45,400", f"{symbol}128,300", f"{symbol}9,951"],
        "percent": ["9%", "12.4%", "0.5%", "21%"],
        "health_reason": list(catalogue.lay["health_reason"]),
        "life_event": list(catalogue.lay["life_event"]),
        "complaint_target": ["my line manager", "a colleague in my team", "the IT helpdesk"],
        "complaint": ["shouting during the weekly review"],
        "change_reason": ["a family wedding"],
        "place": ["Milan", "Frankfurt am Main", "San Antonio"],
        "airport": [
            "Frankfurt am Main Airport",
            "Leonardo da Vinci–Fiumicino Airport",
            "John F Kennedy International Airport",
            "Aalborg Airport",
            "London Heathrow Airport",
        ],
    }[kind]


def reads_back(kind: str, form: str, value: str, text: str, writer: Writer) -> bool:
    if kind == "date":
        return readers.read_date(text, writer) == forms.parse_date(value)
    if kind in ("day_count", "stay"):
        return readers.read_days(text) == readers.read_days(value)
    if kind == "money":
        tolerance = 50 if "k" in text else 0  # '45.4k' rounds to hundreds
        return abs(readers.read_amount(text) - readers.read_amount(value)) <= tolerance
    if kind == "percent":
        return readers.read_percent(text) == readers.read_percent(value)
    if kind == "health_reason" and form == "grammar":  # the condition inside a phrase
        written = [value, *load_catalogue().lay[kind][value]]
        return any(p.lower() in text.lower() for p in written) and text != value
    if kind in ("complaint", "change_reason", "life_event") and form == "grammar":
        return len(text) > 3 and "{" not in text  # the grammar writes its own words
    if kind in ("health_reason", "life_event"):
        return readers.read_phrase(kind, text) == value
    if kind in ("complaint", "change_reason"):
        return text == value if form == "listed" else len(text) > 3 and "{" not in text
    if form == "phrase":  # a role or a colleague, written from the to_who grammar
        return len(text) > 1 and "{" not in text
    if kind == "place":
        return readers.read_place(text) == value
    if kind == "airport":
        return readers.read_airport(text) == value
    # complaint targets: the role reads back; a colleague's name is new information
    if form in ("listed", "role_and_name"):
        return text.split(", ")[0] == value
    if form == "my_manager":
        return text in ("my manager", "my boss") and value in load_catalogue().supervisors
    if form == "described":
        return text in load_catalogue().described
    if form == "first_name":
        return len(text.split()) == 1 and text[0].isupper()
    return len(text.split()) >= 2 and text[0].isupper()


def test_every_form_of_every_kind_round_trips():
    rng = np.random.default_rng(0)
    rendered = set()
    for kind, entries in load_catalogue().forms.items():
        for form in entries:
            for writer in WRITERS:
                for value in sampled_values(kind, writer):
                    for _ in range(2):  # forms with a random choice inside
                        text = render(kind, form, value, writer, rng)
                        if text is None:
                            continue
                        rendered.add((kind, form))
                        assert reads_back(kind, form, value, text, writer), (
                            kind,
                            form,
                            value,
                            text,
                        )
    every = {(k, f) for k, entries in load_catalogue().forms.items() for f in entries}
    assert rendered == every  # no form that never applies


@pytest.mark.parametrize("mode", ["half_a", "half_b"])
def test_each_holdout_half_fits_every_value(mode):
    """A half always has a form that applies, so half_b tickets never fall back to a
    half_a (or as-sampled) form."""
    rng = np.random.default_rng(1)
    for kind in load_catalogue().forms:
        for writer in WRITERS:
            for value in sampled_values(kind, writer):
                fits = [f for f in allowed(kind, mode) if render(kind, f, value, writer, rng)]
                assert fits, (kind, mode, value)


def test_halves_split_the_forms_and_canonical_is_the_value():
    rng = np.random.default_rng(2)
    for kind, entries in load_catalogue().forms.items():
        a, b = set(allowed(kind, "half_a")), set(allowed(kind, "half_b"))
        assert a and b and not a & b and a | b == set(entries)
        (canonical,) = allowed(kind, "canonical")
        value = sampled_values(kind, WRITERS[0])[0]
        assert render(kind, canonical, value, WRITERS[0], rng) == value


def test_relative_dates_resolve_from_the_reference_date():
    us = Writer("US", "en_US", REF)
    rng = np.random.default_rng(3)
    assert render("date", "relative_day", "November 25, 2026", us, rng) == "tomorrow"
    assert render("date", "weekday", "November 30, 2026", us, rng) == "this Monday"
    assert render("date", "weekday", "December 7, 2026", us, rng) == "next Monday"
    assert render("date", "weekday", "December 8, 2026", us, rng) is None  # two weeks out
    assert readers.read_date("this Monday", us) == dt.date(2026, 11, 30)
    assert readers.read_date("next Monday", us) == dt.date(2026, 12, 7)
    assert readers.read_date("last Friday", us) == dt.date(2026, 11, 20)
    assert render("date", "weekday_ordinal", "December 10, 2026", us, rng) == "Thursday, the 10th"
    # Far from the reference date, forms without a year do not apply.
    assert render("date", "month_day", "November 30, 2027", us, rng) is None
    de = Writer("DE", "de_DE", REF)
    assert render("date", "numeric_short", "30 November 2026", de, rng) == "30.11."
    assert readers.read_date("1/15", us) == dt.date(2027, 1, 15)  # the nearest 15 January
    assert readers.read_date("15/1", Writer("FR", "fr_FR", REF)) == dt.date(2027, 1, 15)


def test_lay_phrases_belong_to_one_value_each():
    for kind, table in load_catalogue().lay.items():
        phrases = [p.lower() for ps in table.values() for p in ps]
        assert len(phrases) == len(set(phrases)), kind
        assert all(len(ps) >= 2 for ps in table.values()), kind


def test_a_ticket_uses_one_habit_per_kind_where_it_fits():
    rng = np.random.default_rng(4)
    writer = Writer("US", "en_US", REF)
    values = {"date_start_absence": "December 30, 2026", "date_end_absence": "January 2, 2027"}
    for _ in range(20):
        _, used = render_values(values, writer, "all", rng)
        assert (
            used["date_start_absence"] == used["date_end_absence"]
            or render("date", used["date_start_absence"], values["date_end_absence"], writer, rng)
            is None
        )


def test_read_back_of_unknown_text_fails_clearly():
    with pytest.raises(ValueError, match="not a date form"):
        readers.read_date("someday", WRITERS[0])


def test_short_airport_names_name_listed_airports_once():
    by_name, _ = forms.airports()
    short = forms.airport_short_names()
    assert set(short) <= set(by_name)
    names = [n for ns in short.values() for n in ns]
    assert len(names) == len(set(names))
    assert all(readers.read_airport(n) == full for full, ns in short.items() for n in ns)
