"""`cv_owner`: in a CV (synth.deid.analyzer.kinds.cv_shaped), the name its first line
carries, or a `Name:` line, is a person: the general NER misses names standing alone in
a header."""

import re

from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.lexicon.names import first_names
from synth.deid.lexicon.words import heading_words
from synth.deid.spans import Span, resolve

NAME = "cv_owner"

HEADER_PREFIX = re.compile(
    r"^\s*(?:(?:curriculum\s+vitae|resume|résumé|cv)\b\s*[-–—:|,]?\s*)?(?:name\s*:\s*)?",
    re.IGNORECASE,
)
NAME_LINE = re.compile(r"(?im)^[ \t]*(?:full\s+)?name[ \t]*:[ \t]*(?P<name>[^\n|,;]+)")


def apply(text: str, spans: list[Span]) -> list[Span]:
    return resolve(spans + cv_owner(text))


def cv_owner(text: str) -> list[Span]:
    """In a CV, the owner's name: the first line's leading words before a separator when
    they read as a name, and every `Name:` line's value."""

    if not cv_shaped(text):
        return []
    found = []
    first = re.search(r"\S[^\n]*", text)
    if first:
        head = HEADER_PREFIX.match(first.group())
        start = first.start() + head.end()
        lead = re.split(r"\s*(?:[|,;•·]|\s[-–—]\s|\t|\s{3,})\s*", text[start : first.end()])[0]
        lead = lead.rstrip(" .:")
        if _owner_name(lead):
            found.append(Span(start, start + len(lead), "PERSON", "cv owner"))
    for m in NAME_LINE.finditer(text):
        name = m["name"].strip()
        if _owner_name(name):
            at = m.start("name") + m["name"].index(name)
            found.append(Span(at, at + len(name), "PERSON", "cv owner"))
    return found


def _owner_name(words: str) -> bool:
    """2 to 4 capitalised words (or all in capitals), none a CV heading and none a common
    English word unless the first is a known first name ("Data Scientist" is no name)."""
    from wordfreq import zipf_frequency

    parts = words.split()
    if not 2 <= len(parts) <= 4:
        return False
    if not all(re.fullmatch(r"[A-ZÀ-Þ][\w'’.-]*", p) for p in parts):
        return False
    if any(p.lower() in heading_words() for p in parts):
        return False
    if parts[0].title() in first_names():
        return True
    return all(zipf_frequency(p.lower(), "en") < 4.0 for p in parts)
