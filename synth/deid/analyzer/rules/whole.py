"""`whole`: no span, nor all the spans together, covers the whole document: the longest
is cut to its first sentence, or after its first word. A name guess over a whole
document of a script written without spaces (1,000 CJK characters read as one
ORGANIZATION, issue 94 SENT4) has neither: past MAX_NAME_CHARS it is no name and is
dropped; a shorter one (a document that is one name, one URL) stays whole."""

import itertools
import re

from synth.deid.spans import Span
from synth.deid.types import NAME_TYPES

# The longest span a name guess over a whole uncuttable document may be and be a name.
MAX_NAME_CHARS = 80
# A sentence's end: Latin punctuation before a space, or the CJK full stops, which need none.
SENTENCE_END = re.compile(r"[.!?](?=\s+\S)|[。！？](?=\S)")

NAME = "whole"


def apply(text: str, spans: list[Span]) -> list[Span]:
    return not_whole(text, spans)


def not_whole(text: str, spans: list[Span]) -> list[Span]:
    """Spans that together hold every word of the document, with the longest cut to its
    first sentence, or to what follows its first word when it is one sentence."""
    covered = sorted(spans)
    gaps = [text[a.end : b.start] for a, b in itertools.pairwise(covered)]
    outside = (
        text[: covered[0].start] + text[covered[-1].end :] + "".join(gaps) if covered else text
    )
    if not spans or re.search(r"\w", outside):  # an emoji-only document has neither (SENT3)
        return spans
    longest = max(spans, key=lambda s: s.end - s.start)
    inner = text[longest.start : longest.end]
    cut = SENTENCE_END.search(inner)
    first = re.match(r"\s*\S+\s+", inner)
    if cut:
        shorter = Span(longest.start, longest.start + cut.end(), longest.type, longest.detector)
    elif first:
        shorter = Span(longest.start + first.end(), longest.end, longest.type, longest.detector)
    elif longest.type in NAME_TYPES and len(inner) > MAX_NAME_CHARS:
        return [s for s in spans if s != longest]
    else:
        return spans
    return [shorter if s == longest else s for s in spans]
