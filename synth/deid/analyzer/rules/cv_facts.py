"""`cv_facts`: in a CV, the dates and the employers and schools its owner can be found by
are replaced wherever they stand, found or not: every year, month and year (`Apr 2017`,
`02.2021`, `05/2018`, `2022-11`), season and year (`Summer 2019`) and year range
(docs/annotation.md, "Public resumes annotated"), and each employer and university of the
public lists the CV generator draws from (synth/data/cv/companies.yaml, universities.yaml)
written as listed, unless a product's word follows it ("Microsoft Office"). A year right after a technology is its version (`Windows 2000`, `SQL
Server 2016`) and is left alone.

A general NER reads `02.2021` as a number and misses an employer standing alone on a
line (issue 83: 29 % of graduation years and 32 % of companies survived in real resumes).
"""

import functools
import re

from synth import DATA_DIR
from synth.calendar import MONTHS
from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.lexicon.words import type_words
from synth.deid.spans import Span, resolve
from synth.io.files import read_yaml

NAME = "cv_facts"

_MONTH = "|".join(sorted({m[:3] for m in MONTHS} | set(MONTHS), key=len, reverse=True))
_SEASON = "spring|summer|autumn|fall|winter"
_YEAR = r"(?:19|20)\d\d"
_ONE = (
    rf"(?:(?:{_MONTH})\.?,?\s+{_YEAR}|(?:{_MONTH})\s?['’]?\d\d(?!\d)|(?:{_SEASON})\s+{_YEAR}|(?:0?[1-9]|1[0-2])[./]{_YEAR}"
    rf"|{_YEAR}[-/](?:0[1-9]|1[0-2])(?!\d)|{_YEAR})"
)
CV_DATE = re.compile(
    rf"(?<![\w.-]){_ONE}(?:\s*(?:-|–|—|to|until)\s*(?:{_ONE}|present|now|today|current))?(?![\w])",
    re.IGNORECASE,
)


def apply(text: str, spans: list[Span]) -> list[Span]:
    if not cv_shaped(text):
        return spans
    return resolve(spans + [s for s in cv_facts(text) if not any(s.overlaps(x) for x in spans)])


def cv_facts(text: str) -> list[Span]:
    """The CV's dates and listed employers and universities, as spans of the rule."""
    found = [
        Span(m.start(), m.end(), "DATE", NAME)
        for m in CV_DATE.finditer(text)
        if not _version(text, m.start())
    ]
    for m in listed_organisations().finditer(text):
        if not _product(text, m.end()):
            found.append(Span(m.start(), m.end(), "ORGANIZATION", NAME))
    return found


def _version(text: str, at: int) -> bool:
    """Whether the words before `at` on its line name a technology (the year is its
    version: "Windows 2000", "SQL Server 2016")."""
    known = type_words()["technologies"]
    before = re.search(r"((?:[\w.+#-]+[ \t]+)?([\w.+#-]+))[ \t]+$", text[max(0, at - 40) : at])
    return before is not None and (before[1].lower() in known or before[2].lower() in known)


def _product(text: str, end: int) -> bool:
    """Whether the word after a listed company makes it a product ("Microsoft Office",
    "Oracle Database": synth/data/deid/type_words.yaml, product_words)."""
    after = re.match(r"[ \t]+([\w+#.-]+)", text[end : end + 40])
    words = type_words()
    return after is not None and after[1].lower().strip(".") in (
        words["product_words"] | words["technologies"]
    )


@functools.cache
def listed_organisations() -> re.Pattern:
    """The public employers and universities and their other spellings, as written, whole
    words (three letters or more)."""
    names = set()
    for file in ("companies.yaml", "universities.yaml"):
        doc = read_yaml(DATA_DIR / "cv" / file, "CV vocabulary")
        for name, aliases in doc.items():
            names |= {str(n) for n in [name, *(aliases or [])] if len(str(n)) >= 3}
    words = sorted((re.escape(n) for n in names), key=len, reverse=True)
    return re.compile(rf"(?<![\w-])(?:{'|'.join(words)})(?![\w-])")
