"""`again`: an organisation or place a detector found is marked again where the
document writes it elsewhere (the same name, the same surrogate everywhere)."""

import re

from synth.deid.analyzer.rules.technologies import technology
from synth.deid.lexicon.names import name_word
from synth.deid.spans import Span, resolve

NAME = "again"


def apply(text: str, spans: list[Span]) -> list[Span]:
    return resolve(spans + found_again(text, spans))


def found_again(text: str, spans: list[Span]) -> list[Span]:
    """Each organisation and place a detector found, marked again where the document
    writes it elsewhere and no detector did (an employer named in a CV's header and again
    in its lines): the same name gets the same surrogate everywhere, as a person's does
    (synth.deid.analyzer.analyze.name_parts_alone)."""
    names = {
        text[s.start : s.end]: s
        for s in spans
        if s.type in ("ORGANIZATION", "LOCATION") and name_word(text[s.start : s.end][:1] + "x")
    }
    out = []
    for words, span in names.items():
        if len(words) < 3 or technology(text, span):
            continue
        for m in re.finditer(rf"(?<![\w@./-]){re.escape(words)}(?![\w@-])", text):
            out.append(Span(m.start(), m.end(), span.type, "found again"))
    return out
