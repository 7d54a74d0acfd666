"""`technologies`: a span holding only technologies a CV lists ("Python", "GNU/Linux",
synth/data/deid/type_words.yaml) is no one's personal data and is left as written."""

import re

from synth.deid.lexicon.words import type_words
from synth.deid.spans import Span

NAME = "technologies"
# The types a name or a technology can be read as.
NAME_TYPES = ("PERSON", "ORGANIZATION", "LOCATION", "NRP")


def apply(text: str, spans: list[Span]) -> list[Span]:
    return [s for s in spans if not technology(text, s)]


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
