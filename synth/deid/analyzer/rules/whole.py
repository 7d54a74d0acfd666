"""`whole`: no span, nor all the spans together, covers the whole document: the longest
is cut to its first sentence, or after its first word."""

import itertools
import re

from synth.deid.spans import Span

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
    if re.search(r"\w", outside):
        return spans
    longest = max(spans, key=lambda s: s.end - s.start)
    inner = text[longest.start : longest.end]
    cut = re.search(r"[.!?](?=\s+\S)", inner)
    first = re.match(r"\s*\S+\s+", inner)
    if cut:
        shorter = Span(longest.start, longest.start + cut.end(), longest.type, longest.detector)
    elif first:
        shorter = Span(longest.start + first.end(), longest.end, longest.type, longest.detector)
    else:
        return spans
    return [shorter if s == longest else s for s in spans]
