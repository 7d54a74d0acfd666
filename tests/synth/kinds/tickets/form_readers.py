"""The forms read back: what a written form means (a date from the writer's reference
date and conventions, a duration in days, an amount, a listed value). Only the tests read
forms back: they show that every rendering still means its sampled value."""

import datetime as dt
import re
from functools import cache

from synth.calendar import (
    MONTH_WORD,
    WEEKDAY_WORD,
    WEEKDAYS,
    month_number,
    nearest_yearless,
    number_of,
    weekday_ordinal_matches,
)
from synth.kinds.tickets.forms import Writer, airport_short_names, airports, load_catalogue
from synth.kinds.tickets.forms.amounts import HEDGES, UNIT_DAYS
from synth.kinds.tickets.forms.dates import ORDINAL_DAYS, _month_first


def read_date(text: str, writer: Writer) -> dt.date:
    """The date a written form means, from the writer's reference date and conventions."""
    ref, t = writer.reference_date, text.strip()
    if m := re.fullmatch(rf"({WEEKDAY_WORD}),? (\d.*|[A-Z][a-z]+ \d+|\d+ [A-Z][a-z]+)", t):
        d = read_date(m.group(2), writer)
        if WEEKDAYS[d.weekday()][:3] != m.group(1)[:3]:
            raise ValueError(f"{text!r}: the weekday is not the date's")
        return d
    relative = {"today": 0, "tomorrow": 1, "yesterday": -1}
    if t.lower() in relative:
        return ref + dt.timedelta(days=relative[t.lower()])
    if m := re.fullmatch(r"(this|next|last) (\w+)", t, re.IGNORECASE):
        weekday = WEEKDAYS.index(m.group(2).capitalize())
        window = {"this": range(1, 7), "next": range(7, 14), "last": range(-7, 0)}
        return next(
            ref + dt.timedelta(days=k)
            for k in window[m.group(1).lower()]
            if (ref + dt.timedelta(days=k)).weekday() == weekday
        )
    if m := re.fullmatch(r"(?:this )?(\w+), the (\d+)(?:st|nd|rd|th)", t, re.IGNORECASE):
        (only,) = weekday_ordinal_matches(
            WEEKDAYS.index(m.group(1).capitalize()), int(m.group(2)), ref, ORDINAL_DAYS
        )
        return only
    if m := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", t):
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := re.fullmatch(r"(\d{1,2})([/.\-])(\d{1,2})\2(\d{4})", t):
        a, b = int(m.group(1)), int(m.group(3))
        month, day = (a, b) if _month_first(writer) else (b, a)
        return dt.date(int(m.group(4)), month, day)
    if m := re.fullmatch(r"(\d{1,2})([/.])(\d{1,2})\.?", t):
        a, b = int(m.group(1)), int(m.group(3))
        month, day = (a, b) if _month_first(writer) else (b, a)
        return nearest_yearless(month, day, ref)
    if m := re.fullmatch(rf"({MONTH_WORD}) (\d{{1,2}}), (\d{{4}})", t, re.IGNORECASE):
        return dt.date(int(m.group(3)), month_number(m.group(1)), int(m.group(2)))
    if m := re.fullmatch(rf"(\d{{1,2}}) ({MONTH_WORD}) (\d{{4}})", t, re.IGNORECASE):
        return dt.date(int(m.group(3)), month_number(m.group(2)), int(m.group(1)))
    if m := re.fullmatch(
        rf"(?:the )?(\d{{1,2}})(?:st|nd|rd|th)? of ({MONTH_WORD})", t, re.IGNORECASE
    ):
        return nearest_yearless(month_number(m.group(2)), int(m.group(1)), ref)
    if m := re.fullmatch(rf"({MONTH_WORD}) (\d{{1,2}})", t, re.IGNORECASE):
        return nearest_yearless(month_number(m.group(1)), int(m.group(2)), ref)
    if m := re.fullmatch(rf"(\d{{1,2}}) ({MONTH_WORD})", t, re.IGNORECASE):
        return nearest_yearless(month_number(m.group(2)), int(m.group(1)), ref)
    raise ValueError(f"not a date form: {text!r}")


def read_days(text: str) -> int:
    """Days a written duration means (a month counts 30)."""
    t = text.lower().replace("a couple of", "two")
    t = re.sub(rf"^(?:{'|'.join(HEDGES)}) ", "", t)
    m = re.fullmatch(r"(\d+|a|an|\w+) (day|week|fortnight|month)s?", t)
    if not m:
        raise ValueError(f"not a duration form: {text!r}")
    count = m.group(1)
    return number_of(count) * UNIT_DAYS[m.group(2)]


def read_amount(text: str) -> float:
    """The amount a written sum means ('45.4k' is 45,400; '45.400 €' is 45,400)."""
    t = re.sub(r"[$€£]|dollars|euros|pounds|USD|EUR|GBP", "", text).strip()
    if t.endswith("k"):
        return float(t[:-1].replace(",", ".")) * 1000
    return float(re.sub(r"[ ,.]", "", t))


def read_percent(text: str) -> float:
    m = re.fullmatch(r"([\w.,]+) ?(?:%|percent|per cent)", text.strip())
    if not m:
        raise ValueError(f"not a percentage form: {text!r}")
    number = m.group(1).replace(",", ".")
    return float(number) if re.fullmatch(r"[\d.]+", number) else float(number_of(number))


@cache
def _lay_reverse(kind: str) -> dict[str, str]:
    return {p.lower(): value for value, ps in load_catalogue().lay[kind].items() for p in ps}


def read_phrase(kind: str, text: str) -> str:
    """The listed value a lay phrase stands for (a listed value reads as itself)."""
    return _lay_reverse(kind).get(text.lower(), text)


def read_place(text: str) -> str:
    m = re.fullmatch(r"our (.+) office|the (.+) area|downtown (.+)|central (.+)|(.+)", text)
    return next(g for g in m.groups() if g)


def read_airport(text: str) -> str:
    short = {n: full for full, names in airport_short_names().items() for n in names}
    if text in short:
        return short[text]
    by_name, _ = airports()
    by_code = {code: name for name, (code, _) in by_name.items()}
    by_city = {city: name for name, (_, city) in by_name.items() if city}
    if m := re.fullmatch(r"the (.+) airport", text):
        return by_city[m.group(1)]
    if m := re.fullmatch(r"(.+) \(([A-Z]{3})\)", text):
        return by_code[m.group(2)]
    return by_code.get(text, text)
