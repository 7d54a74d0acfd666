"""Calendar and number words, once: month and weekday names, reading a month or weekday
however it is spelt, ordinals, number words, and moving a written date in its own form.

The ticket forms write dates and counts with these (synth/kinds/tickets/forms/), the
entity locator and the forms reader read them back, the surrogates move dates a
document already has (synth/deid/anonymizer/surrogates.py), and CV extraction reads months in
date ranges (synth/kinds/cvs/extract/): one spelling of each name for all of them.
"""

import datetime as dt
import re

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
# A month or weekday as people write it: the full name or its first three letters.
MONTH_WORD = "|".join(MONTHS + [m[:3] for m in MONTHS])
WEEKDAY_WORD = "|".join(WEEKDAYS + [w[:3] for w in WEEKDAYS])
# A month in a CV's date range: any word a month's abbreviation begins ('Sept', 'Sept.').
MONTH_PREFIX = rf"(?:{'|'.join([m[:3] for m in MONTHS] + ['Sept'])})[a-z]*\.?"
ORDINAL_SUFFIX = r"(?:st|nd|rd|th)"
NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]


def month_number(name: str) -> int:
    """1-12 for a month's name, abbreviation or any word that starts like one ('sept')."""
    return [m[:3].lower() for m in MONTHS].index(name[:3].lower()) + 1


def weekday_number(name: str) -> int:
    """0 (Monday) to 6 for a weekday's name or abbreviation, in any case."""
    return [w[:3].lower() for w in WEEKDAYS].index(name[:3].lower())


def month_like(month: int, written: str) -> str:
    """Month `month` spelt as `written` spells its month: abbreviated, lower case."""
    name = MONTHS[month - 1]
    name = name[:3] if len(written) == 3 else name
    return name.lower() if written.islower() else name


def ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def number_word(n: int) -> str | None:
    """'two' for 2; None past twenty (people write those in digits)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else None


def number_of(word: str) -> int:
    """2 for '2' or 'two'; 'a' and 'an' are 1."""
    if word in ("a", "an"):
        return 1
    return int(word) if word.isdigit() else NUMBER_WORDS.index(word.lower())


def nearest_yearless(month: int, day: int, ref: dt.date) -> dt.date | None:
    """The date a day and month without a year name: the one nearest `ref`."""
    candidates = []
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            candidates.append(dt.date(year, month, day))
        except ValueError:
            continue
    return min(candidates, key=lambda d: abs((d - ref).days)) if candidates else None


def weekday_ordinal_matches(weekday: int, day: int, ref: dt.date, days: int) -> list[dt.date]:
    """The dates within `days` of `ref` that 'Thursday, the 20th' can mean."""
    return [
        d
        for d in (ref + dt.timedelta(days=k) for k in range(-days, days + 1))
        if d.weekday() == weekday and d.day == day
    ]


# Written dates, read by their parts: numeric (3/6, 03.06.2027, 3-6-27), ISO, and named
# months with a day before or after, an ordinal, 'of' and a year.
ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
NUMERIC_DATE = re.compile(r"(\d{1,2})([/.\-])(\d{1,2})(?:\2(\d{2}|\d{4}))?(\.?)")
NAMED_DATE = re.compile(
    rf"(?P<lead>the )?(?:(?P<d1>\d{{1,2}})(?P<o1>{ORDINAL_SUFFIX})?(?P<of> of)? )?"
    rf"(?P<month>{MONTH_WORD})(?P<dot>\.)?(?: (?P<d2>\d{{1,2}})(?P<o2>{ORDINAL_SUFFIX})?)?"
    rf"(?P<comma>,)?(?: (?P<year>\d{{4}}))?",
    re.IGNORECASE,
)
WEEKDAY_AND_DATE = re.compile(rf"({WEEKDAY_WORD}|Tues|Thurs?|Weds)(\.?,? )(.+)", re.IGNORECASE)
LONE_WEEKDAY = re.compile(
    rf"(?:(?:this|next|last|on|coming) )?(?:{WEEKDAY_WORD})(?:,? the \d{{1,2}}{ORDINAL_SUFFIX})?",
    re.IGNORECASE,
)


def _pad(n: int, like: str) -> str:
    return f"{n:02d}" if len(like) == 2 else str(n)


def _moved(y: int, m: int, d: int, offset: dt.timedelta) -> dt.date | None:
    try:
        return dt.date(y, m, d) + offset
    except ValueError:
        return None


def shift_date(text: str, offset: dt.timedelta, month_first: bool) -> str | None:
    """`text` (a date as people write it) moved by `offset`, in the same form; None for a
    form this does not read. A date without a year is read in the current year."""
    t = text.strip()
    year_now = dt.date.today().year
    if m := ISO_DATE.fullmatch(t):
        new = _moved(int(m[1]), int(m[2]), int(m[3]), offset)
        return new and new.isoformat()
    if m := NUMERIC_DATE.fullmatch(t):
        return _shift_numeric(m, offset, month_first, year_now)
    if (m := NAMED_DATE.fullmatch(t)) and (m["d1"] or m["d2"]):
        return _shift_named(m, offset, year_now)
    if (m := WEEKDAY_AND_DATE.fullmatch(t)) and (
        rest := shift_date(m[3], offset, month_first)
    ) is not None:  # "Friday, 21 March", "Mon 3/6": the date moves, its weekday with it
        name = WEEKDAYS[(weekday_number(m[1]) + offset.days) % 7]
        full = m[1].lower() in (w.lower() for w in WEEKDAYS)
        return (name if full else name[:3]) + m[2] + rest
    if LONE_WEEKDAY.fullmatch(t):
        return _shift_weekday(t, offset)
    return None


def _shift_numeric(m: re.Match, offset, month_first: bool, year_now: int) -> str | None:
    a, b = int(m[1]), int(m[3])
    # A dotted date is written day first wherever people write one (12.03. is 12 March).
    first_is_month = (month_first and m[2] != "." and a <= 12) or b > 12
    month, day = (a, b) if first_is_month else (b, a)
    year = int(m[4]) if m[4] else year_now
    year = year + 2000 if m[4] and len(m[4]) == 2 else year
    new = _moved(year, month, day, offset)
    if new is None:
        return None
    x, y = (new.month, new.day) if first_is_month else (new.day, new.month)
    out = f"{_pad(x, m[1])}{m[2]}{_pad(y, m[3])}"
    if m[4]:
        out += m[2] + (str(new.year)[-2:] if len(m[4]) == 2 else str(new.year))
    return out + m[5]


def _shift_named(m: re.Match, offset, year_now: int) -> str | None:
    new = _moved(
        int(m["year"] or year_now), month_number(m["month"]), int(m["d1"] or m["d2"]), offset
    )
    if new is None:
        return None
    day_text = ordinal(new.day) if (m["o1"] or m["o2"]) else str(new.day)
    name = month_like(new.month, m["month"]) + (m["dot"] or "")
    if m["d1"]:
        out = f"{m['lead'] or ''}{day_text}{m['of'] or ''} {name}"
    else:
        out = f"{name} {day_text}"
    return out + (m["comma"] or "") + (f" {new.year}" if m["year"] else "")


def _shift_weekday(t: str, offset) -> str | None:
    """'next Monday', 'Thursday, the 20th' (read in this month): both parts move."""
    weekday = re.search("|".join(WEEKDAYS), t, re.IGNORECASE)
    if not weekday:
        return None
    edits = [(*weekday.span(), WEEKDAYS[(weekday_number(weekday.group()) + offset.days) % 7])]
    day = re.search(rf"\b(\d{{1,2}}){ORDINAL_SUFFIX}\b", t)
    if day:
        today = dt.date.today()
        new = _moved(today.year, today.month, int(day[1]), offset)
        if new is None:
            return None
        edits = [(*weekday.span(), WEEKDAYS[new.weekday()]), (*day.span(), ordinal(new.day))]
    for start, end, new_text in sorted(edits, reverse=True):
        t = t[:start] + new_text + t[end:]
    return t
