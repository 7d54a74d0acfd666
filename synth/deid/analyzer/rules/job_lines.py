"""`job_lines`: in a CV, the employer a job line names is an organisation, found or not:
the words after a job title and `at`, `@`, a dash or a comma ("Contract Data Engineer at
PatientPoint", "Lead Developer - Pantaflix", "Software Engineer, VendNovation"), and a
bold or linked name right before a date ("**ThoughtWorks:** (Jan 2015 - April 2019)",
"**Statista (2024/03 – Present)**"). Words that are all a resume's own (a title, a
skill: synth/data/deid/resume_words.yaml) are no employer.

A general NER misses an employer that stands in a CV's job line without a sentence
around it (issue 83: a third of employers survived in real resumes).
"""

import functools
import re

from synth import DATA_DIR
from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.analyzer.rules.cv_facts import CV_DATE
from synth.deid.lexicon.words import resume_words
from synth.deid.spans import Span, resolve

NAME = "job_lines"
# An employer's name as a job line writes it: capitalised words (and & . ' -), up to a
# mark that ends it.
_ORG = r"[A-Z0-9][\w&.'’-]*(?:[ \t]+(?:&|of|and|[A-Z0-9][\w&.'’-]*))*"


@functools.cache
def _after_title() -> re.Pattern:
    heads = (DATA_DIR / "cv" / "title_heads.txt").read_text(encoding="utf-8").splitlines()
    words = "|".join(
        sorted((w for w in heads if w and not w.startswith("#")), key=len, reverse=True)
    )
    return re.compile(
        rf"(?i:\b(?:{words}))\b(?:[ \t]*(?:at|@|-|–|—|,)[ \t]+\[?|[ \t]+\[)(?P<org>{_ORG})",
    )


# A bold or linked name before a date: **Name:** (date, **Name (date, [Name](url) ... date
BEFORE_DATE = re.compile(
    rf"(?:\*\*|\[)(?P<org>{_ORG})(?::?\*\*|\]\([^)\s]*\))?:?[ \t]*\(?(?={CV_DATE.pattern})"
)


def apply(text: str, spans: list[Span]) -> list[Span]:
    if not cv_shaped(text):
        return spans
    return resolve(spans + [s for s in job_lines(text) if not any(s.overlaps(x) for x in spans)])


def job_lines(text: str) -> list[Span]:
    found = []
    for pattern in (_after_title(), BEFORE_DATE):
        for m in pattern.finditer(text):
            start, end = m.span("org")
            name = text[start:end].rstrip(".,:;-–— ")
            end = start + len(name)
            if name and not _own_words(name):
                found.append(Span(start, end, "ORGANIZATION", NAME))
    return found


def _own_words(name: str) -> bool:
    """Whether the words are all a resume's own (a title, a skill, a heading)."""
    words = [w.strip(".,'’").lower() for w in name.split()]
    vocabulary = resume_words()["words"]
    return all(w in vocabulary or w in ("&", "of", "and") or w.isdigit() for w in words)
