"""Time expressions in CVs: date ranges, 'since <year>' and durations.

Kept apart from the attribute rules because both the rules and the flat-text reader
(flat.py) cut and pair text at them.
"""

import re

from synth.calendar import MONTH_PREFIX as MONTHS
from synth.calendar import ORDINAL_SUFFIX

YEAR = r"(?:19|20)\d{2}"
OPEN_END = r"present|till date|till now|current|now|date|today"


# Numeric months: '10/2012', '01/03/2016' (day/month/year: the middle number is the
# month) and ISO '2019-07'. A number that cannot be a month is ignored, not misread.
def _numeric_month(k: int) -> str:
    return rf"(?:\d{{1,2}}[/.])?(?P<n{k}>\d{{1,2}})[/.]"


def _iso_month(k: int) -> str:
    return rf"(?:-(?P<i{k}>\d{{2}})(?!\d))?"


RANGE = re.compile(
    rf"(?:\d{{1,2}}{ORDINAL_SUFFIX}?[\s-]*)?(?:(?P<m1>{MONTHS})[\s,-]*|{_numeric_month(1)})?"
    rf"(?P<y1>{YEAR}){_iso_month(1)}"
    rf"\s*(?:-|–|—|to|till|until)\s*(?:\d{{1,2}}{ORDINAL_SUFFIX}?\s+)?(?:(?P<m2>{MONTHS})"
    rf"[\s,-]*|{_numeric_month(2)})?(?P<y2>{YEAR}|{OPEN_END}){_iso_month(2)}",
    re.IGNORECASE,
)
SINCE = re.compile(rf"\bsince\s+(?:{MONTHS}\s+)?(?P<y1>{YEAR})", re.IGNORECASE)
DURATION = re.compile(
    r"(?<![\w.])(?P<n>\d{1,2}(?:\.\d)?)\s*\+?\s*(?P<unit>years?|yrs?|months?)"
    r"(?!\s+old)\b",
    re.IGNORECASE,
)
