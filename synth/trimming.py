"""Turn a slot's raw model output into whole sentences that belong in the document.

The model is asked to continue an email or a CV; what it writes past the paragraph, a
sign-off, placeholder brackets, or a half sentence at the token limit must not reach the
text. A CV's skills or languages slot is often a list with no full stop; such a list,
cut at its last whole item, is kept instead of being thrown away as unfinished.
"""

import re

SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)(?=\s|$)")
# Lines the model starts when it thinks the email is over or a new one begins.
STOP_LINE = re.compile(
    r"^\s*(?:best|kind|warm)?\s*regards|^\s*sincerely|^\s*thanks?,|^\s*thank you,|"
    r"^\s*(?:subject|from|to|dear|hi|hello)\b[^\n]*[:,]?\s*$|^\s*\[",
    re.IGNORECASE | re.MULTILINE,
)
PLACEHOLDER = re.compile(r"\[[^\]]*\]|\{[^}]*\}|<[^>]*>|\$\{")
LIST_SEPARATOR = re.compile(r"\s*[,;]\s*")
# A list item longer than this is prose cut at a comma, not an item.
MAX_ITEM_WORDS = 6


def count_sentence_ends(text: str) -> int:
    return len(SENTENCE_END.findall(text))


def is_finished(text: str, sentences: int) -> bool:
    """Whether generation for this slot can stop: a paragraph ended or enough sentences."""
    return "\n\n" in text.lstrip() or count_sentence_ends(text) >= sentences


def trim_slot(raw: str, sentences: int) -> str:
    """The first `sentences` whole sentences of the first paragraph, without placeholders."""
    raw = raw.lstrip()
    text = raw.split("\n\n", 1)[0]
    stop = STOP_LINE.search(text)
    if stop:
        text = text[: stop.start()]
    first_line, newline, _ = text.partition("\n")
    # The model ended the first line itself (a newline, a paragraph break or a stop line
    # follows it); otherwise the token limit cut it.
    line_ended = bool(newline) or len(text) < len(raw)
    text = " ".join(text.split())  # one paragraph, single spaces
    kept, start = [], 0
    for m in SENTENCE_END.finditer(text):
        sentence = text[start : m.end()].strip()
        start = m.end()
        if PLACEHOLDER.search(sentence):
            break  # '[Your Name]' and the like: the rest is template talk
        kept.append(sentence)
        if len(kept) == sentences:
            break
    if kept:
        return " ".join(kept)
    # No whole sentence: keep the first line if it is a list; a line the token limit cut
    # ends at its last whole item.
    return whole_list(first_line if line_ended else first_line.rpartition(",")[0])


def whole_list(line: str) -> str:
    """`line` as 'a, b, c' when it is a list of at least two short, distinct items, else ''."""
    items, seen = [], set()
    for item in LIST_SEPARATOR.split(line.strip(" .")):
        item = item.strip(" -*•")
        if not item:
            continue
        if len(item.split()) > MAX_ITEM_WORDS or PLACEHOLDER.search(item):
            return ""
        if item.lower() not in seen:
            seen.add(item.lower())
            items.append(item)
    return ", ".join(items) if len(items) >= 2 else ""
