"""What an installed method's replacement may not hold: any private string this process
has seen, read the way the writer and every reader will read it.

An installed method (a plugin) writes text hrsynth did not choose. Two ways it carried
a name out (probe 9, issue 94):
- the original with a zero-width space between its letters, or in full-width letters:
  a check on the raw replacement passed, then the writer removed the invisible
  characters (synth.deid.visible) or a reader folded the width, and the name was clear;
- another document's original, kept from an earlier call: only the span's own original
  was checked.

So a replacement is folded as readers fold it (invisible characters removed, NFKC,
case folded, spaces collapsed) and compared with every original this process has been
given to replace: the span's own (anywhere in the replacement, as a substring), and every
other span's, of this document and of the documents seen before (as a run of whole
words). Other spans' originals of fewer than MIN_CHARS letters or digits are not
compared: "HR", "Al" or "5" would refuse innocent replacements. The memory is bounded
(MEMORY_STRINGS, oldest forgotten first) and lives in the process (a Ray actor, or the
local run): it holds folded private strings, and is never written anywhere."""

import re
import unicodedata
from collections import deque

from synth.deid.visible import visible

# Letters or digits a string of another span needs to be compared (see above).
MIN_CHARS = 4
# Originals remembered per process; a run's actor sees its shards' spans in turn.
MEMORY_STRINGS = 200_000
# Words of an original compared at most (a longer original: its first words).
MAX_WORDS = 12
WORD = re.compile(r"\w+")


def folded(text: str) -> str:
    """`text` as a reader may see it: no invisible characters, compatibility forms folded
    (full-width, ligatures, circled letters), case folded, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", visible(text)).casefold()
    return " ".join(visible(text).split())


def _words(text: str) -> tuple[str, ...]:
    return tuple(WORD.findall(folded(text)))


class SeenPrivate:
    """The folded originals this process has been given, as word runs."""

    def __init__(self, limit: int = MEMORY_STRINGS):
        self.limit = limit
        self.order: deque[tuple[str, ...]] = deque()
        self.runs: set[tuple[str, ...]] = set()

    def remember(self, originals) -> None:
        for original in originals:
            run = _words(original)[:MAX_WORDS]
            if sum(len(w) for w in run) < MIN_CHARS or run in self.runs:
                continue
            self.runs.add(run)
            self.order.append(run)
            if len(self.order) > self.limit:
                self.runs.discard(self.order.popleft())

    def found_in(self, text: str) -> bool:
        """Whether `text` holds one remembered original as a run of its words."""
        words = _words(text)
        longest = min(MAX_WORDS, len(words))
        return any(
            words[i : i + n] in self.runs
            for n in range(1, longest + 1)
            for i in range(len(words) - n + 1)
        )

    def __len__(self) -> int:
        return len(self.runs)


SEEN = SeenPrivate()  # this process's memory (one per Ray actor)


def document_originals(text: str, spans) -> list[str]:
    """The words of each span of a document: what its replacements must not carry."""
    return [text[s.start : s.end] for s in spans]


def holds_original(original: str, written: str) -> bool:
    """Whether `written`, read as readers read it, holds the span's own `original`."""
    own = folded(original)
    return bool(own) and own in folded(written)
