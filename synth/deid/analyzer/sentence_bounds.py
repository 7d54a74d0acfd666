"""Where a sentence ends, as people end them: shared by the sentence classifiers
(synth.deid.analyzer.sentences, conduct) and what acts on them."""

import re

# A line break before a capital, a digit or a bullet ends a sentence; one inside a
# sentence does not.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[A-Z0-9\-•*])")


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence: ends at ., ! or ? and a space, a blank line, or a
    line break before a capital (a line break inside a sentence does not end it)."""
    out, start = [], 0
    for m in SENTENCE_END.finditer(text):
        if text[start : m.start()].strip():
            out.append(_stripped(text, start, m.start()))
        start = m.end()
    if text[start:].strip():
        out.append(_stripped(text, start, len(text)))
    return out


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
