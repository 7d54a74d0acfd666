"""Which surface forms a text uses for dates, counts of days, stays, amounts and percents.

The forms are the generator's own (synth/data/forms/forms.yaml): rather than a second
set of patterns that could drift from the renderers, every form is rendered here for
many public values and writers, and each rendering is reduced to a *shape* (digits by
length, month and weekday names by kind, number words as one symbol, other words and
signs as written, any run of spaces as one). A stretch of private text whose shape one of those renderings had is
written in that form. Longest stretch first, stretches never overlap.
"""

import datetime as dt
import re
from collections import Counter
from functools import cache

import numpy as np

from synth.calendar import MONTHS, NUMBER_WORDS, WEEKDAYS
from synth.kinds.tickets.forms import Writer, load_catalogue, render
from synth.kinds.tickets.samplers import format_date

KINDS = ("date", "day_count", "stay", "money", "percent")
TOKEN = re.compile(r"\d+|[A-Za-z]+|\s+|[^\sA-Za-z\d]")
WRITERS = [
    Writer(code, locale, dt.date(2026, month, day))
    for code, locale in [("US", "en_US"), ("GB", "en_GB"), ("DE", "de_DE"), ("FR", "fr_FR")]
    for month, day in [(1, 14), (6, 3), (11, 26)]
]


def _symbol(token: str) -> str:
    lower = token.lower()
    if token.isspace():
        return " "  # "9 %" and "9%" are two forms
    if token.isdigit():
        if len(token) == 4 and 1900 <= int(token) <= 2100:
            return "YEAR"
        return "9" if len(token) <= 2 else "999"
    if lower in (m.lower() for m in MONTHS):
        return "MONTH"
    if lower in (m[:3].lower() for m in MONTHS):
        return "MON"
    if lower in (w.lower() for w in WEEKDAYS):
        return "WEEKDAY"
    if lower in (w[:3].lower() for w in WEEKDAYS):
        return "WD"
    if lower in NUMBER_WORDS:  # the renderers' own words
        return "NUM"
    return lower


def shape(text: str) -> tuple[str, ...]:
    return tuple(_symbol(t) for t in TOKEN.findall(text))


def _values(kind: str, writer: Writer, rng: np.random.Generator) -> list[str]:
    """Public values of each kind, in the sampled format the renderers take."""
    if kind == "date":
        near = set(range(-8, 15))  # today, this/next/last weekday: every day near
        offsets = sorted(near | set(range(-40, 360, 3)))
        days = [writer.reference_date + dt.timedelta(days=k) for k in offsets]
        return [format_date(d, writer.country_code) for d in days]
    if kind == "day_count":
        return [f"{n} day" if n == 1 else f"{n} days" for n in range(1, 43)]
    if kind == "stay":
        return [f"{n} {unit}" for n in range(1, 13) for unit in ("days", "weeks", "months")]
    if kind == "money":
        amounts = rng.integers(800, 150_000, size=60).tolist() + [1000, 2500, 45000, 100000]
        return [f"{s}{a:,}" for s in "$€£" for a in amounts]
    return [f"{n}%" for n in range(1, 41)] + ["2.5%", "12.4%", "7.5%"]


@cache
def shape_table() -> dict[str, dict[tuple[str, ...], str]]:
    """{kind: {shape: the form that renders it most often}}: built once from the renderers."""
    rng, catalogue, table = np.random.default_rng(0), load_catalogue(), {}
    for kind in KINDS:
        seen: dict[tuple, Counter] = {}
        for writer in WRITERS:
            for value in _values(kind, writer, rng):
                for form in catalogue.forms[kind]:
                    for _ in range(2):  # some forms draw a variant (pad, hedge, weekday)
                        text = render(kind, form, value, writer, rng)
                        if text is not None:
                            seen.setdefault(shape(text), Counter())[form] += 1
        table[kind] = {s: c.most_common(1)[0][0] for s, c in seen.items()}
    return table


def forms_used(text: str) -> dict[str, list[str]]:
    """{kind: [form of each stretch written in it, in order]} for one text."""
    table = shape_table()
    longest = max(len(s) for kind in table.values() for s in kind)
    symbols = [_symbol(t) for t in TOKEN.findall(text)]
    found: dict[str, list[str]] = {kind: [] for kind in KINDS}
    i = 0
    while i < len(symbols):
        if symbols[i] == " ":
            i += 1
            continue
        for n in range(min(longest, len(symbols) - i), 0, -1):
            window = tuple(symbols[i : i + n])
            kinds = [kind for kind in KINDS if window in table[kind]]
            if kinds:
                for kind in kinds:  # "3 weeks" is a count of days and a stay
                    found[kind].append(table[kind][window])
                i += n
                break
        else:
            i += 1
    return found
