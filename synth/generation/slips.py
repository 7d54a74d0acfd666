"""Writer slips: the typos people make, never inside an entity span.

Real tickets have swapped and doubled letters, dropped letters, a missing space and a
sentence that starts in lower case. A NER model trained only on clean text meets them
first at test time. Slips go on words outside the entity spans and on the spaces between
two such words, so every span keeps its text and its word boundaries; the spans' offsets
are moved by what changed before them.

Written here rather than taken from a library: nlpaug's character augmenters and the
`typo` package rewrite a whole string and return no offsets, so spans would have to be
found again afterwards, and nlpaug pulls in a large dependency tree for five edits.
"""

import re

import numpy as np

WORD = re.compile(r"[A-Za-z]{4,}")  # short words hardly ever get a typo
KINDS = ("transpose", "drop", "double", "no_space", "lower_start")
WEIGHTS = np.array([0.3, 0.25, 0.2, 0.15, 0.1])


def _free(start: int, end: int, spans: list[dict]) -> bool:
    """Whether [start, end) and the characters on either side lie outside every span."""
    return all(end < s["start"] or start > s["end"] for s in spans)


def _edit(text: str, m: re.Match, kind: str, rng) -> tuple[int, int, str] | None:
    """(start, end, replacement) for one slip on the word `m`, or None if it does not fit."""
    s, e, word = m.start(), m.end(), m.group()
    if kind == "lower_start":
        before = text[:s].rstrip()
        if word[0].isupper() and (not before or before[-1] in ".!?"):
            return s, s + 1, word[0].lower()
        kind = "transpose"
    if kind == "no_space":
        if e < len(text) - 1 and text[e] == " " and text[e + 1].isalpha():
            return e, e + 1, ""
        kind = "drop"
    k = int(rng.integers(1, len(word) - 1))  # never the first letter
    if kind == "transpose":
        if word[k] == word[k + 1 if k + 1 < len(word) else k - 1]:
            return None
        j = k + 1 if k + 1 < len(word) else k - 1
        a, b = sorted((k, j))
        return s + a, s + b + 1, word[b] + word[a]
    if kind == "drop":
        return s + k, s + k + 1, ""
    return s + k, s + k + 1, word[k] * 2  # double


def add_slips(
    text: str, spans: list[dict], rate: float, rng: np.random.Generator
) -> tuple[str, list[dict]]:
    """(text with slips, spans moved to match): each word of four letters or more
    outside every span gets one slip with probability `rate`."""
    if rate <= 0:
        return text, spans
    edits = []
    for m in WORD.finditer(text):
        reach = m.end() + 2  # a missing space also touches the next word's first letter
        if rng.random() >= rate or not _free(m.start(), reach, spans):
            continue
        edit = _edit(text, m, KINDS[rng.choice(len(KINDS), p=WEIGHTS)], rng)
        if edit and (not edits or edit[0] >= edits[-1][1]):
            edits.append(edit)
    if not edits:
        return text, spans
    out, moved, last = [], [], 0
    for start, end, replacement in edits:
        out += [text[last:start], replacement]
        last = end
    out.append(text[last:])
    for span in spans:
        shift = sum(len(r) - (e - s) for s, e, r in edits if e <= span["start"])
        moved.append({**span, "start": span["start"] + shift, "end": span["end"] + shift})
    return "".join(out), moved
