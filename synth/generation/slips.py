"""Writer slips: the typos people make, and how they space their words.

Real tickets have swapped and doubled letters, dropped letters, a missing space, a
sentence that starts in lower case, no space after a comma ("hi,i need") and line breaks
in the middle of a sentence. A NER model trained only on clean text meets them first at
test time, and reads an odd word as a value. Slips go on words outside the entity spans
and on the spaces between two such words, and on the lower-case words inside a span of
three words or more (a clause in the writer's words: "my manger keeps …"), never on its
first or last word, so every span keeps its edges; the spans' offsets are moved by what
changed before and inside them.

Written here rather than taken from a library: nlpaug's character augmenters and the
`typo` package rewrite a whole string and return no offsets, so spans would have to be
found again afterwards, and nlpaug pulls in a large dependency tree for five edits.
"""

import re

import numpy as np

WORD = re.compile(r"[A-Za-z]{4,}")  # short words hardly ever get a typo
KINDS = ("transpose", "drop", "double", "no_space", "lower_start")
WEIGHTS = np.array([0.3, 0.25, 0.2, 0.15, 0.1])


TYPOS = ("transpose", "drop", "double")
MIN_CLAUSE_WORDS = 3


def _free(start: int, end: int, spans: list[dict]) -> bool:
    """Whether [start, end) and the characters on either side lie outside every span."""
    return all(end < s["start"] or start > s["end"] for s in spans)


def _inside_clause(text: str, m: re.Match, spans: list[dict]) -> bool:
    """Whether word `m` is a lower-case word inside a span of three words or more, not
    its first or last (names and values keep their letters)."""
    if not m.group().islower():
        return False
    return any(
        s["start"] < m.start()
        and m.end() < s["end"]
        and len(text[s["start"] : s["end"]].split()) >= MIN_CLAUSE_WORDS
        and text[m.end()] == " "
        for s in spans
    )


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
        if rng.random() >= rate:
            continue
        kind = KINDS[rng.choice(len(KINDS), p=WEIGHTS)]
        if not _free(m.start(), reach, spans):
            if not _inside_clause(text, m, spans):
                continue
            kind = kind if kind in TYPOS else TYPOS[0]
        edit = _edit(text, m, kind, rng)
        if edit and (not edits or edit[0] >= edits[-1][1]):
            edits.append(edit)
    return _applied(text, spans, edits)


def _applied(text: str, spans: list[dict], edits: list[tuple[int, int, str]]):
    """`edits` ((start, end, replacement), in order, not overlapping) made, and the spans
    moved by those before them and stretched by those inside them."""
    if not edits:
        return text, spans
    out, moved, last = [], [], 0
    for start, end, replacement in edits:
        out += [text[last:start], replacement]
        last = end
    out.append(text[last:])

    def shift(at: int) -> int:
        return sum(len(r) - (e - s) for s, e, r in edits if e <= at)

    for span in spans:
        new = {**span, "start": span["start"] + shift(span["start"]),
               "end": span["end"] + shift(span["end"])}  # fmt: skip
        typed_inside = any(span["start"] < s and e <= span["end"] for s, e, _ in edits)
        if typed_inside and new.get("match") == "exact":
            new["match"] = "rendered"  # the value as this writer typed it
        moved.append(new)
    return "".join(out), moved


def typed_spacing(
    text: str, spans: list[dict], run_together: float, line_breaks: float, rng
) -> tuple[str, list[dict]]:
    """(text with spacing as people type it, spans moved to match): the space after a
    comma, full stop, question or exclamation mark left out with probability
    `run_together` ("hi,i need"), and a space between two words inside a sentence made a
    line break with probability `line_breaks`. Never at a span's edge or inside a value."""
    edits = []
    for m in re.finditer(r"(?<=[a-z][,.!?]) (?=[A-Za-z])| (?=[a-z])", text):
        after_punct = text[m.start() - 1] in ",.!?"
        p = run_together if after_punct else line_breaks
        if p <= 0 or rng.random() >= p:
            continue
        outside = all(m.start() < s["start"] - 1 or m.start() > s["end"] for s in spans)
        if not outside and (after_punct or not _inside_span_words(m.start(), spans)):
            continue
        edits.append((m.start(), m.end(), "" if after_punct else "\n"))
    return _applied(text, spans, edits)


def _inside_span_words(at: int, spans: list[dict]) -> bool:
    """A space strictly inside a span (a clause may be broken by the writer's line)."""
    return any(s["start"] < at < s["end"] - 1 for s in spans)
