"""`technologies`: a span holding only technologies a CV lists ("Python", "GNU/Linux",
synth/data/deid/type_words.yaml) or acronyms the lexicon lists ("PTO", "FMLA", "SAP",
synth/data/deid/capitals.yaml), in any case, is no one's personal data and is left as
written; so is a run of more words in capitals than a name has ("THE SAP SCREEN SHOWS
ZERO": shouting). A name where a person stands (synth.deid.lexicon.person_cues: "my
colleague Julia Rust", "Regards,\nScala Swift", "Ruby Swift" on a CV's first line) is
a person whatever its words are, and stays."""

import re

from synth.deid.analyzer.capitals import settings as capitals
from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.analyzer.rules.evidence import employer_before
from synth.deid.lexicon.person_cues import person_cue
from synth.deid.lexicon.words import type_words
from synth.deid.spans import Span
from synth.deid.types import NAME_TYPES

NAME = "technologies"


def apply(text: str, spans: list[Span]) -> list[Span]:
    cv = None
    out = []
    for s in spans:
        listed = acronyms(text, s) and not employer_before(text, s.start)  # "at SAP" stays one
        if technology(text, s) or listed or shouting(text, s):
            cv = cv_shaped(text) if cv is None else cv
            if person_cue(text, s.start, s.end, cv) is None:
                continue
        out.append(s)
    return out


def acronyms(text: str, span: Span) -> bool:
    """Whether a name-type span holds only acronyms the lexicon lists, in any case."""
    if span.type not in NAME_TYPES:
        return False
    words = re.findall(r"[\w&]+", text[span.start : span.end])
    return bool(words) and all(w.upper() in capitals().kept for w in words)


def shouting(text: str, span: Span) -> bool:
    """Whether a name-type span is more words in capitals than a name's run."""
    if span.type not in NAME_TYPES:
        return False
    words = re.findall(r"[^\W\d_]+", text[span.start : span.end])
    return len(words) > capitals().max_run_words and all(w.isupper() for w in words)


def technology(text: str, span: Span) -> bool:
    """Whether a name-type or URL span holds nothing but technologies a CV lists
    ("Python", "GNU/Linux", "ASP.Net MVC"): no one's personal data."""
    if span.type not in (*NAME_TYPES, "URL"):
        return False
    words = text[span.start : span.end].strip(" *_`.,;:()").lower()
    known = type_words()["technologies"]
    if words in known:
        return True
    terms = [t for t in re.split(r"\s*[,/|]\s*|\s+and\s+", words) if t]
    return bool(terms) and all(t in known or all(w in known for w in t.split()) for t in terms)
