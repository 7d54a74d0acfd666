"""`names`: a PERSON span holding an organisation's word ("Missouri State University",
synth/data/deid/type_words.yaml) is an ORGANIZATION; an ORGANIZATION or LOCATION span of
one to three capitalised words opening with a known first name is a PERSON; in a CV, one
word typed PERSON that is no known first or last name is an ORGANIZATION."""

import re

from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.lexicon.names import first_names, last_names, name_word
from synth.deid.lexicon.places import gazetteer
from synth.deid.lexicon.words import organisation_words
from synth.deid.spans import Span

NAME = "names"


def apply(text: str, spans: list[Span]) -> list[Span]:
    cv = cv_shaped(text)
    return [named(text, s, cv) for s in spans]


def named(text: str, span: Span, cv: bool = False) -> Span:
    """A person, an organisation and a place told apart by their words: a PERSON span
    holding an organisation's word ("Missouri State University") is an ORGANIZATION; an
    ORGANIZATION or LOCATION span of one to three capitalised words that opens with a
    known first name, holds no such word and names no place ("Maria Rossi") is a PERSON;
    in a CV, one capitalised word typed PERSON that is no known first or last name
    ("Zipscene", "Lesara") is the employer the CV names."""
    if span.type not in ("PERSON", "ORGANIZATION", "LOCATION"):
        return span
    words = re.findall(r"[\w'’.&-]+", text[span.start : span.end])
    organisation = any(
        w.lower().strip(".") in organisation_words() or w.lower() in organisation_words()
        for w in words
    )
    if span.type == "PERSON" and organisation:
        return Span(span.start, span.end, "ORGANIZATION", span.detector)
    if (
        span.type in ("ORGANIZATION", "LOCATION")
        and not organisation
        and 1 <= len(words) <= 3
        and all(name_word(w) for w in words)
        and words[0] in first_names()
        and " ".join(words).lower() not in gazetteer()
    ):
        return Span(span.start, span.end, "PERSON", span.detector)
    if (
        cv
        and span.type == "PERSON"
        and len(words) == 1
        and name_word(words[0])
        and words[0] not in first_names()
        and words[0] not in last_names()
    ):
        return Span(span.start, span.end, "ORGANIZATION", span.detector)
    return span
