"""Turn a slot's raw model output into whole sentences that belong in the ticket.

The model is asked to continue an email; what it writes past the paragraph, a sign-off,
placeholder brackets, or a half sentence at the token limit must not reach the text.
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


def count_sentence_ends(text: str) -> int:
    return len(SENTENCE_END.findall(text))


def is_finished(text: str, sentences: int) -> bool:
    """Whether generation for this slot can stop: a paragraph ended or enough sentences."""
    return "\n\n" in text.lstrip() or count_sentence_ends(text) >= sentences


def trim_slot(raw: str, sentences: int) -> str:
    """The first `sentences` whole sentences of the first paragraph, without placeholders."""
    text = raw.lstrip()
    text = text.split("\n\n", 1)[0]
    stop = STOP_LINE.search(text)
    if stop:
        text = text[: stop.start()]
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
    return " ".join(kept)
