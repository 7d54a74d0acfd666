"""`dates`: dates in the forms people write that a general NER reads as numbers or
organisations: dotted European dates ("12.03.2024", "3.6.") and a weekday before one
("Fri 12.03.", "Thurs. 3.6."), a month of a year as CVs write it ("2020/07") and a range
of years ("2016-2019") are DATE."""

import re

from synth.deid.spans import Span, resolve

NAME = "dates"
# Types that are a clause of the writer's own words (synth/data/deid/types.yaml).
CLAUSE_TYPES = ("CONDUCT", "CIRCUMSTANCE", "HEALTH", "LIFE_EVENT")
WEEKDAY = r"(?:Mon|Monday|Tue|Tues|Tuesday|Wed|Weds|Wednesday|Thu|Thur|Thurs|Thursday|Fri|Friday|Sat|Saturday|Sun|Sunday)"
# A dotted day and month, with a year or a closing dot (a bare "12.03" is a number).
DOTTED_DATE = r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?:(?:\d{4}|\d{2})(?!\d|\.\d))?"
DATE_FORMS = re.compile(
    rf"(?<!\w){WEEKDAY}\.?,?\s+(?<![\d.])(?P<wd>\d{{1,2}})\.(?P<wm>\d{{1,2}})\.?(?:\d{{4}}|\d{{2}})?(?![\d])"
    rf"|{DOTTED_DATE}",
    re.IGNORECASE,
)
# A month of a year as CVs write it (2020/07, 2022-11, 07/2020), and a range of years
# (2016-2019): a general NER reads them as phones.
YEAR_FORMS = re.compile(
    r"(?<![\w/.-])(?:(?:19|20)\d\d[/-](?:0[1-9]|1[0-2])|(?:0[1-9]|1[0-2])/(?:19|20)\d\d"
    r"|(?:19|20)\d\d\s?[-–]\s?(?:19|20)\d\d)(?![\w/-])"
)


def apply(text: str, spans: list[Span]) -> list[Span]:
    return with_dates(text, spans)


def with_dates(text: str, spans: list[Span]) -> list[Span]:
    """Every dotted date (alone or after a weekday) a DATE span: spans of other types on
    it give way (what they held outside the date stays theirs); a date inside a clause or
    a longer date is left to it."""
    out = list(spans)
    found = [m for m in DATE_FORMS.finditer(text) if _day_and_month(m)]
    for m in sorted(found + list(YEAR_FORMS.finditer(text)), key=lambda m: m.start()):
        date = Span(m.start(), m.end(), "DATE", "dates")
        on_it = [s for s in out if s.overlaps(date)]
        if any(
            s.start <= date.start
            and s.end >= date.end
            and (s.type == "DATE" or s.type in CLAUSE_TYPES)
            for s in on_it
        ):
            continue
        out = [s for s in out if not s.overlaps(date)] + [date]
        for s in on_it:  # what an overlapping span held outside the date stays its own
            for a, b in ((s.start, date.start), (date.end, s.end)):
                if re.search(r"\w", text[a:b]):
                    out.append(Span(a, b, s.type, s.detector))
    return resolve(out)


def _day_and_month(m: re.Match) -> bool:
    day, month = (m["wd"], m["wm"]) if m["wd"] else (m["d"], m["m"])
    return 1 <= int(day) <= 31 and 1 <= int(month) <= 12
