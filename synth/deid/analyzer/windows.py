"""Long documents read by detectors in overlapping windows.

Every detector has a length it can read: the BIO model sees 256 word pieces (a CV's
first 200 words), spaCy refuses a text over 1,000,000 characters. A document longer
than that is cut into windows that overlap, each window is detected on its own, and the
spans are put back at their place in the document. A value cut by a window's edge is
whole in the next window (the overlap is longer than any value); spans of one type that
overlap are merged, so the pieces seen by two windows become one span.
"""

import re
from dataclasses import replace

from synth.deid.spans import Span

SPACE = re.compile(r"\s")


def windows(text: str, size: int, overlap: int) -> list[tuple[int, int]]:
    """(start, end) of pieces of at most `size` characters covering `text`; each ends at
    a space where one lies in its second half, and the next starts at least `overlap`
    characters before that end, at a word's start."""
    if size <= overlap:
        raise ValueError(f"window size {size} must exceed the overlap {overlap}")
    pieces, start = [], 0
    while True:
        end = min(start + size, len(text))
        if end < len(text):
            spaces = [m.start() for m in SPACE.finditer(text, start + size // 2, end)]
            end = spaces[-1] if spaces else end
        pieces.append((start, end))
        if end >= len(text):
            return pieces
        following = max(end - overlap, start + 1)
        spaces = [m.end() for m in SPACE.finditer(text, start + 1, following)]
        start = spaces[-1] if spaces else following


def merge_same_type(spans: list[Span]) -> list[Span]:
    """Overlapping spans of one type as one span (the union); others kept as they are."""
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.type, s.start, s.end)):
        last = merged[-1] if merged else None
        if last and last.type == span.type and span.start < last.end:
            merged[-1] = replace(
                last, end=max(last.end, span.end), score=_best(last.score, span.score)
            )
        else:
            merged.append(span)
    return sorted(merged, key=lambda s: (s.start, s.end))


def _best(a: float | None, b: float | None) -> float | None:
    return a if b is None else b if a is None else max(a, b)


class Windowed:
    """A detector that reads texts longer than `size` characters window by window."""

    def __init__(self, detector, size: int, overlap: int):
        self.detector, self.size, self.overlap = detector, size, overlap
        self.name = detector.name
        self.precision = getattr(detector, "precision", None)  # an encoder's (synth.precision)

    def detect(self, texts: list[str]) -> list[list[Span]]:
        pieces, owners = [], []
        for i, text in enumerate(texts):
            for start, end in windows(text, self.size, self.overlap):
                pieces.append(text[start:end])
                owners.append((i, start))
        found: list[list[Span]] = [[] for _ in texts]
        if getattr(self.detector, "reads_documents", False):  # a window judged by its document
            detected = self.detector.detect(pieces, documents=[texts[i] for i, _ in owners])
        else:
            detected = self.detector.detect(pieces)
        for (i, offset), spans in zip(owners, detected):
            found[i] += [replace(s, start=s.start + offset, end=s.end + offset) for s in spans]
        return [merge_same_type(spans) for spans in found]
