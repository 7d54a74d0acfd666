"""Dates as people write them: long, ISO, numeric in the writer's order, relative to the
reference date, with weekdays and ordinals."""

import datetime as dt

from synth import ConfigError
from synth.calendar import MONTHS, WEEKDAYS, nearest_yearless, ordinal, weekday_ordinal_matches
from synth.kinds.persona import load_countries
from synth.kinds.tickets.forms.catalogue import Writer

YEARLESS_DAYS = 150  # a date without its year is read as the nearest one: keep it near
ORDINAL_DAYS = 27  # 'Thursday the 20th' names one date within four weeks of today


def parse_date(value: str) -> dt.date:
    for fmt in ("%B %d, %Y", "%d %B %Y"):
        try:
            return dt.datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"not a sampled date: {value!r}")


def _month_first(writer: Writer) -> bool:
    return load_countries()[writer.country_code].date_order == "mdy"


def _separator(writer: Writer) -> str:
    return load_countries()[writer.country_code].date_separator


def render_date(form: str, value: str, writer: Writer, rng) -> str | None:
    d, ref = parse_date(value), writer.reference_date
    delta = (d - ref).days
    mdy, sep = _month_first(writer), _separator(writer)
    month, short = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
    yearless_ok = abs(delta) <= YEARLESS_DAYS and nearest_yearless(d.month, d.day, ref) == d
    if form == "long":
        return value
    if form == "iso":
        return d.isoformat()
    if form == "numeric_year":
        pad = bool(rng.integers(2)) or sep == "."
        a, b = (d.month, d.day) if mdy else (d.day, d.month)
        return f"{a:02d}{sep}{b:02d}{sep}{d.year}" if pad else f"{a}{sep}{b}{sep}{d.year}"
    if form == "relative_day":
        return {0: "today", 1: "tomorrow", -1: "yesterday"}.get(delta)
    if form == "weekday":
        name = WEEKDAYS[d.weekday()]
        if 1 <= delta <= 6:
            return f"this {name}"
        if 7 <= delta <= 13:
            return f"next {name}"
        if -7 <= delta <= -1:
            return f"last {name}"
        return None
    if form == "weekday_ordinal":
        if not 1 <= abs(delta) <= ORDINAL_DAYS or weekday_ordinal_matches(
            d.weekday(), d.day, ref, ORDINAL_DAYS
        ) != [d]:
            return None
        lead = "this " if 1 <= delta <= 6 else ""
        return f"{lead}{WEEKDAYS[d.weekday()]}, the {ordinal(d.day)}"
    if not yearless_ok:
        return None
    if form == "weekday_date":  # Tue 14.3 / Friday, 21 March / Mon 6/3
        name = WEEKDAYS[d.weekday()]
        name = name[:3] if rng.integers(2) else name
        if rng.integers(2):
            day_month = f"{month} {d.day}" if mdy else f"{d.day} {month}"
            return f"{name}, {day_month}" if rng.integers(2) else f"{name} {day_month}"
        short_date = render_date("numeric_short", value, writer, rng)
        return f"{name} {short_date.rstrip('.')}"
    if form == "numeric_short":
        if sep == ".":
            return f"{d.day}.{d.month}."
        return f"{d.month}/{d.day}" if mdy else f"{d.day}/{d.month}"
    if form == "month_day":
        return f"{month} {d.day}" if mdy else f"{d.day} {month}"
    if form == "ordinal_of":
        return f"the {ordinal(d.day)} of {month}"
    if form == "ordinal_lower":
        return f"{d.day} of {month.lower()}"
    if form == "abbreviated":
        return f"{short} {d.day}" if mdy else f"{d.day} {short}"
    raise ConfigError(f"forms.yaml: unknown date form '{form}'")
