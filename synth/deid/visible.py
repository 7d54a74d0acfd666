"""What a shareable document may hold: the characters a reader sees, in the order shown.

Personal data can be written so that a person reads it and a program does not, or so
that a program decodes what no person sees (issue 72):
- Unicode tag characters (U+E0020..E007F) spell ASCII invisibly: a name written in them
  survived into the shareable text, since detectors read text without them;
- a variation selector (U+FE0F) inside an SSN hid it from every recognizer;
- a right-to-left override shows `htimS nhoJ` as `John Smith`: detectors read the
  stored order and missed the name;
- a surrogate drawn to the original's shape carried its invisible characters along.

So every document is read in display order (an override's run turned round, the bidi
controls gone: `display_order`), the detectors read that, and what is written holds no
invisible character (`visible`): format characters (category Cf: zero-width spaces and
joiners, soft hyphens, bidi controls, tag characters, the byte-order mark) and every
other default-ignorable code point (variation selectors, the combining grapheme joiner,
Mongolian free variation selectors, Khmer inherent vowels, the Hangul fillers), and the
blank-looking symbols such as the braille blank (synth/data/deid/invisible.yaml; issue
84: these hid an SSN and a name from every detector). The one exception:
a zero-width joiner or non-joiner between two letters of a script that spells with them
(Persian, the Indic scripts) or inside an emoji sequence stays. The key keeps the
original as written.
"""

import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from synth.io.files import read_yaml

INVISIBLE_FILE = Path(__file__).resolve().parents[1] / "data" / "deid" / "invisible.yaml"

RLO, LRO, PDF = "\u202e", "\u202d", "\u202c"
RLI, LRI, FSI, PDI = "\u2067", "\u2066", "\u2068", "\u2069"
JOINERS = {"\u200c", "\u200d"}  # zero-width non-joiner, joiner
# Letters from here on spell with joiners (Greek and Cyrillic do not, but neither hides
# Latin text behind them); below it a joiner between letters only hides.
JOINING_SCRIPTS_FROM = "\u0590"


@cache
def shows_nothing() -> frozenset[str]:
    """The characters of invisible.yaml's ranges (default-ignorable and blank-looking)."""
    doc = read_yaml(INVISIBLE_FILE, "invisible characters")
    chars = set()
    for first_last in doc["default_ignorable"] + doc["blank_looking"]:
        first, last = (int(part, 16) for part in first_last.split(".."))
        chars.update(map(chr, range(first, last + 1)))
    return frozenset(chars)


def invisible(ch: str) -> bool:
    """A character that shows nothing (format, default-ignorable, blank-looking)."""
    return ch in shows_nothing() or unicodedata.category(ch) == "Cf"


def _spells(before: str, after: str) -> bool:
    """Whether a joiner between `before` and `after` is spelling, not hiding."""

    def joins(ch: str) -> bool:
        kind = unicodedata.category(ch)
        return (kind[0] in "LM" and ch >= JOINING_SCRIPTS_FROM) or kind == "So"

    return bool(before) and bool(after) and joins(before) and joins(after)


def visible(text: str) -> str:
    """`text` without its invisible characters (a spelling joiner kept)."""
    if text.isascii():
        return text
    out = []
    for i, ch in enumerate(text):
        spelling = ch in JOINERS and _spells(out[-1] if out else "", _next_shown(text, i + 1))
        if spelling or not invisible(ch):
            out.append(ch)
    return "".join(out)


def _next_shown(text: str, i: int) -> str:
    while i < len(text) and invisible(text[i]):
        i += 1
    return text[i] if i < len(text) else ""


@dataclass(frozen=True)
class Shown:
    """A document in display order, with the original's offsets per character."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    written: str  # the document as written

    def original(self, start: int, end: int) -> str:
        """What the original holds where the shown span start..end comes from."""
        a, b = self.to_original(start, end)
        return self.written[a:b]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The stretch of the original a span of the shown text comes from (a reversed
        run's characters are not in order: the smallest and largest offsets)."""
        if start >= end:
            at = (
                self.starts[start]
                if start < len(self.starts)
                else (self.ends[-1] if self.ends else 0)
            )
            return at, at
        return min(self.starts[start:end]), max(self.ends[start:end])


def display_order(text: str) -> Shown:
    """`text` as it is shown: each right-to-left override's run (to its PDF, the end of
    its line or of the text) turned round grapheme by grapheme, the overrides and
    embeddings themselves taken out; everything else as written."""
    if text.isascii():
        offsets = tuple(range(len(text)))
        return Shown(text, offsets, tuple(i + 1 for i in offsets), text)
    pieces: list[tuple[str, int]] = []  # (character, offset in text)
    i, n = 0, len(text)
    while i < n:
        if text[i] != RLO:
            pieces.append((text[i], i))
            i += 1
            continue
        end = i + 1
        while end < n and text[end] not in (PDF, "\n", PDI):
            end += 1
        run = [(text[j], j) for j in range(i + 1, end)]
        pieces += [piece for grapheme in reversed(_grouped(run)) for piece in grapheme]
        i = end + (1 if end < n and text[end] == PDF else 0)
    kept = [(ch, at) for ch, at in pieces if ch not in (RLO, LRO, PDF)]
    return Shown(
        "".join(ch for ch, _ in kept),
        tuple(at for _, at in kept),
        tuple(at + 1 for _, at in kept),
        text,
    )


def _grouped(run: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """A run's characters grouped as graphemes (a base and the marks after it)."""
    groups: list[list[tuple[str, int]]] = []
    for piece in run:
        if groups and (unicodedata.combining(piece[0]) or invisible(piece[0])):
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return groups
