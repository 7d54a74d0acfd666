"""`edges`: a span starts and ends on a word's edge and never holds the spaces around
it, so the replacement keeps the original's spacing."""

from synth.deid.spans import Span

NAME = "edges"


def apply(text: str, spans: list[Span]) -> list[Span]:
    return [e for s in spans if (e := on_word_edges(text, s)) is not None]


def on_word_edges(text: str, span: Span) -> Span | None:
    """The span without the spaces around it, grown to whole words where it starts or
    ends inside one; None when nothing but spaces is left."""
    start, end = span.start, span.end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end <= start:
        return None
    while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum() and text[end - 1].isalnum():
        end += 1
    return Span(start, end, span.type, span.detector)
