"""`resume_words`: in a CV, skills, degrees, job titles, section headings, bullets and
technologies are not personal data: a span made only of their words (and small words) is
left as written (synth/data/deid/resume_words.yaml), unless a person stands there
(synth.deid.lexicon.person_cues: "Ruby Swift" on the CV's first line). So are a percentage, and a DATE or
SPAN_OF_TIME that says how often or how long with no year ("weekly", "from minutes to
seconds", "over 5 years"). A word outside them (a name, an employer, a city) keeps the
span, whole.

A general NER reads a resume's capitalised skills and headings as organisations and
people ("Formal Concept Analysis", "Project Guide", "Java 8"): replaced, they made a
shared resume one part in three fake (issue 83: 84 % of replacements touched no gold span).
"""

import re

from synth.calendar import NUMBER_WORDS
from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.lexicon.person_cues import person_cue
from synth.deid.lexicon.words import resume_words
from synth.deid.spans import Span
from synth.deid.types import NAME_TYPES

NAME = "resume_words"
# A resume's words as the rule reads them: letters with the marks skills carry
# ("C++", "Node.js", "CI/CD" is two), split on spaces, bullets and separators.
WORDS = re.compile(r"[^\s,;:()\[\]{}*•·|/_`\"“”]+")
SMALL = frozenset(
    {"a", "an", "the", "and", "or", "of", "in", "on", "for", "with", "to", "&", "+", "-", "–"}
)
UNIT_TYPES = ("DATE", "SPAN_OF_TIME")


def apply(text: str, spans: list[Span]) -> list[Span]:
    if not spans or not cv_shaped(text):
        return spans
    return [
        s
        for s in spans
        if not describes_work(text[s.start : s.end], s.type)
        or person_cue(text, s.start, s.end, cv=True) is not None
    ]


def describes_work(words: str, type_: str) -> bool:
    """Whether a CV's span of `type_` holding `words` is a skill, degree, title, heading,
    percentage or how-often, and so no one's personal data."""
    if type_ == "PERCENT":
        return True
    found = [w.strip(".'’!?-").lower() for w in WORDS.findall(words)]
    found = [w for w in found if w]
    if not found:
        return False
    if type_ in UNIT_TYPES:
        return _how_often(found)
    if type_ not in NAME_TYPES:
        return False
    vocabulary = resume_words()["words"]
    named = [w for w in found if w not in SMALL and not _version(w)]
    return bool(named) and all(w in vocabulary for w in named)


def _how_often(words: list[str]) -> bool:
    """Frequency and unit words with small counts ("every 2 weeks"); digits alone are a
    date ("11/14/23")."""
    frequencies = resume_words()["frequencies"]
    if not any(re.search(r"[^\W\d]", w) for w in words):
        return False
    for word in words:
        for part in re.findall(r"\d+|[^\W\d]+", word):
            if part.isdigit():
                if len(part) > 3:  # a year
                    return False
            elif part not in frequencies and part not in NUMBER_WORDS:
                return False
    return True


def _version(word: str) -> bool:
    """A version or a count beside a skill ("Java 8", "Python 3.11", "5+")."""
    return re.fullmatch(r"v?\d{1,3}(?:\.\d+)*\+?", word) is not None
