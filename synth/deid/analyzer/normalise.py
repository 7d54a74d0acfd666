"""Text as the detectors should read it: characters that hide personal data taken out,
with every offset mapped back to the document as written.

A name split by zero-width characters ("Jo\u200bhn"), written with combining marks over
every letter ("J\u0336o\u0336h\u0336n\u0336"), wrapped in a right-to-left override, or an
SSN with a zero-width joiner between its digits reads the same to a person and passes
every recognizer and the BIO model: their patterns and word pieces see other characters.
The detectors read the normalised text; the spans they find are mapped back, so the
replacement covers what was written, hidden characters included, and nothing of the
document is changed outside a span.

Per grapheme (a character and the combining marks after it):
- invisible characters (synth.deid.visible: format characters such as zero-width spaces
  and joiners, soft hyphens, bidi controls, tag characters, the byte-order mark; and
  variation selectors and fillers) are dropped;
- the rest is NFKC-normalised (full-width and styled letters become plain ones, a letter
  and its accent one character), and combining marks NFKC cannot compose onto a Latin
  letter or digit are dropped.
"""

import unicodedata
from dataclasses import dataclass

from synth.deid.visible import invisible

# Combining marks left over a character below this (Latin, digits, punctuation) are
# dropped; in other scripts (Devanagari's virama, Arabic's vowel marks) they are spelling.
LATIN_END = "\u0250"


@dataclass(frozen=True)
class Normalised:
    text: str  # what the detectors read
    starts: tuple[int, ...]  # per character of `text`: where its grapheme starts in the original
    ends: tuple[int, ...]  # ... and where it ends
    original_length: int

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """A span of the normalised text as a span of the original (whole graphemes)."""
        if start >= end or not self.text:
            at = self.starts[start] if start < len(self.starts) else self.original_length
            return at, at
        return self.starts[start], self.ends[end - 1]


def _hidden(ch: str) -> bool:
    return invisible(ch)


def _graphemes(text: str):
    """(start, end) of each base character with the combining marks that follow it."""
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        while j < n and (unicodedata.combining(text[j]) or _hidden(text[j])):
            j += 1
        yield i, j
        i = j


def normalise(text: str) -> Normalised:
    """The text detectors read and the map back to `text` (see the module's docstring)."""
    if text.isascii():  # nothing to change: the common case costs one scan
        offsets = tuple(range(len(text)))
        return Normalised(text, offsets, tuple(i + 1 for i in offsets), len(text))
    out, starts, ends = [], [], []
    for a, b in _graphemes(text):
        kept = "".join(ch for ch in text[a:b] if not _hidden(ch))
        plain = unicodedata.normalize("NFKC", kept)
        if plain and plain[0] < LATIN_END:  # marks over Latin letters hide; elsewhere they spell
            plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
        out.append(plain)
        starts += [a] * len(plain)
        ends += [b] * len(plain)
    return Normalised("".join(out), tuple(starts), tuple(ends), len(text))
