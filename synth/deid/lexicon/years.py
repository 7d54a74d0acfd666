"""Dates as CVs write them, without a day: a month of a year ("Jan 2016", "September,
2018", "07/2020", "2020-07", "Mar'17"), a season or quarter of one ("Summer 2018", "Q3
2019"), a year alone, and ranges of these with what a CV writes between and after them
("2016 - Present", "Jan 2016 to Mar 2017", "from 2015 till date").

Such a date moves back by the document's whole number of years, its month, season and
words kept: order and every interval survive, the years stay in the past (none after
this year) and within a working life (10 to 19 years back: synth.deid.anonymizer.
surrogates). A "Present" stays: the whole CV reads as written that many years ago.

Before this, a span of this shape was read as no date and its digits were redrawn: a job
held from 2016 to 2017 became one held from 9557 to 2699 (issue 93).
"""

import re

from synth.calendar import MONTH_PREFIX

# A four-digit year a CV can hold (1900-2099), not part of a longer number.
YEAR = r"(?:19|20)\d\d"
# Tokens, in turn: a year and a two-digit end ("2016-19"); a month number and a year
# ("07/2020"); a year; a year and a month number ("2020-07"); a two-digit year after a word's
# letters and an apostrophe, a hyphen or nothing ("Mar'17", "Jan-16", "Aug19"), or after
# an apostrophe alone ("'17").
SEASON = r"(?:spring|summer|autumn|fall|winter|Q[1-4]|H[12]|early|mid|late|end of|beginning of)"
YEAR_TOKEN = re.compile(
    rf"(?<![\w/.-])(?P<ry>{YEAR})(?P<rsep>\s?[-–]\s?)(?P<rshort>\d\d)(?![\w/.-])"
    rf"|(?<![\w/.-])(?P<mm>0?[1-9]|1[0-2])(?P<sep>[/.-])(?P<myear>{YEAR})(?![\w.]|[/-]\d)"
    rf"|(?<![\w/.])(?P<year>{YEAR})(?![\w])(?![./-]\d{{1,2}}\b)"
    rf"|(?<![\w/.-])(?P<ym>{YEAR})(?P<ysep>[/.-])(?P<ymm>0[1-9]|1[0-2])(?![\w]|[/.-]\d)"
    rf"|(?:(?<=[a-z.])(?P<dash>\s?['’-]\s?|)|(?<![\w'’])(?P<tick>['’]))(?P<short>\d\d)(?![\w])",
    re.IGNORECASE,
)
AFTER_MONTH = re.compile(rf"\b(?:{MONTH_PREFIX}|{SEASON})\s?['’-]?\s?$", re.IGNORECASE)
QUARTER = re.compile(r"\b[QH][1-4]\b")
# What else a CV writes in a date of this shape: months, seasons, "Present", connectives.
FILLER = re.compile(
    rf"\b(?:{MONTH_PREFIX}|{SEASON}|present|now|current|currently|ongoing|today|till|until|"
    r"to|date|from|since|between|and|the|of|in|onwards?|continuing|running|so far)\b"
    r"|[\s,.;:()/'’–—-]+",
    re.IGNORECASE,
)


def moved_years(text: str, years_back: int) -> str | None:
    """`text` with every year in it moved back `years_back` years in its own form
    ("2016" -> "2003", "Mar'17" -> "Mar'04", "07/2020" -> "07/2007"); None when `text`
    holds no year, or digits that are not part of one (a day: a date of another shape)."""
    tokens = list(YEAR_TOKEN.finditer(text))
    if not tokens or not all(_short_after_a_month(text, m) for m in tokens):
        return None
    rest = QUARTER.sub(" ", YEAR_TOKEN.sub(" ", text))
    if re.search(r"\d", rest):
        return None
    return YEAR_TOKEN.sub(lambda m: _moved_token(m, years_back), text)


def only_date_words(text: str) -> bool:
    """Whether `text`, its years taken out, holds only months, seasons and the words a CV
    writes in a date ("Jan 2016 to Present"): then it is wholly a date."""
    return not FILLER.sub("", YEAR_TOKEN.sub("", text)).strip()


def _short_after_a_month(text: str, m: re.Match) -> bool:
    """A two-digit year counts after a month or season ("Aug19", "Fall '18") or an
    apostrophe alone, never after another word ("Covid-19", "Win32")."""
    if m["short"] is None or m["tick"] is not None:
        return True
    return AFTER_MONTH.search(text[: m.start("short")]) is not None


def _moved_token(m: re.Match, back: int) -> str:
    if m["ry"] and int(m["rshort"]) <= int(m["ry"][2:]):  # "2022-11": a month of 2022
        return f"{int(m['ry']) - back}{m['rsep']}{m['rshort']}"
    if m["ry"]:  # "2016-19": a range, its end after its start
        return f"{int(m['ry']) - back}{m['rsep']}{(int(m['rshort']) - back) % 100:02d}"
    if m["year"]:
        return str(int(m["year"]) - back)
    if m["myear"]:
        return f"{m['mm']}{m['sep']}{int(m['myear']) - back}"
    if m["ym"]:
        return f"{int(m['ym']) - back}{m['ysep']}{m['ymm']}"
    lead = m["dash"] if m["dash"] is not None else m["tick"]
    return f"{lead}{(int(m['short']) - back) % 100:02d}"
