"""`parts`: a name-type span holding two things is cut: at a line break that does not
continue the name, at a link's `](`, at the separators of a CV's lines (" - ", " (")."""

import re

from synth.deid.lexicon.words import heading_words
from synth.deid.spans import Span
from synth.deid.types import NAME_TYPES

NAME = "parts"

# Where a name-type span is two things: a link's text and its address, or items a CV
# line separates ("Amazon - Seattle, WA", "DAV Public School (Gurugram)").
PART_BREAKS = re.compile(r"\]\(|\s+[-–—|•]\s+|\s+\(|\)")
# A line break inside a name is one only after a word that cannot end it ("University
# of\n    Bologna").
CONTINUES = re.compile(r"(?:\b(?:of|and|the|de|di|du|del|der|für|for|&))\s*$", re.IGNORECASE)


def apply(text: str, spans: list[Span]) -> list[Span]:
    return [part for s in spans for part in parts(text, s)]


def parts(text: str, span: Span) -> list[Span]:
    """A name-type span cut where it holds two things: at a line break that does not
    continue the name, at a link's `](` and at the separators of a CV's lines; each
    part with words other than a section heading's keeps the type (the next rules decide
    it again)."""
    if span.type not in NAME_TYPES:
        return [span]
    cuts = [m.span() for m in PART_BREAKS.finditer(text, span.start, span.end)]
    for m in re.finditer(r"\n", text[span.start : span.end]):
        at = span.start + m.start()
        if not CONTINUES.search(text[span.start : at]):
            cuts.append((at, at + 1))
    if not cuts:
        return [span]
    out, start = [], span.start
    for a, b in sorted(cuts):
        if a >= start:
            out.append(Span(start, a, span.type, span.detector))
            start = b
    out.append(Span(start, span.end, span.type, span.detector))
    return [p for p in out if _holds_a_name(text[p.start : p.end])]


def _holds_a_name(words: str) -> bool:
    """Whether a part has words other than a CV's section headings ("Technical")."""
    found = re.findall(r"\w+", words.lower())
    return bool(found) and not all(w in heading_words() for w in found)
