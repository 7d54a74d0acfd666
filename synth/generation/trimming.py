"""Turn a slot's raw model output into whole sentences that belong in the document.

The model is asked to continue an email or a CV; what it writes past the paragraph, a
sign-off, placeholder brackets, or a half sentence at the token limit must not reach the
text. A CV's skills or languages slot is often a list with no full stop, on one line
("Python; SQL; Tableau") or as bullet lines; such a list, cut at its last whole item, is
kept (as "a, b, c") instead of being thrown away as unfinished. A slot that opens a list
item ("- ", "Certifications: ") may instead hold whole lines, one item each (trim_items).
"""

import re

from synth import DATA_DIR
from synth.calendar import NUMBER_WORDS

SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)(?=\s|$)")
# "approx." or "i.e." followed by a space does not end a sentence.
ABBREVIATIONS = frozenset(
    line.strip().lower()
    for line in (DATA_DIR / "lists" / "abbreviations.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)
# Lines the model starts when it thinks the email is over or a new one begins.
STOP_LINE = re.compile(
    r"^\s*(?:best|kind|warm)?\s*regards|^\s*sincerely|^\s*thanks?,|^\s*thank you,|"
    r"^\s*(?:subject|from|to|dear|hi|hello)\b[^\n]*[:,]?\s*$|^\s*\[",
    re.IGNORECASE | re.MULTILINE,
)
# A line in capitals is a heading the model started (a CV's next section, "FABRICANT"):
# what follows belongs to no slot.
HEADING_LINE = re.compile(r"^[ \t]*[A-Z][A-Z0-9 &/,-]{3,}[ \t]*$", re.MULTILINE)
# Where the model stops writing the email and answers it, as a Q&A page would ("A: The
# answer is no", "Options: (1)"): at a line or sentence start; what follows is not the
# sender's (12 of 1,600 detector tickets held it, issue 81).
ANSWER_TALK = re.compile(
    r"(?:^|(?<=[.!?])[ \t]+|\n)[ \t]*(?:(?:Q|A|Me|Answer|Question|Options|Solution|Chat|Chat History)"
    r"[ \t]*:|The answer (?:is|to)\b|Let's think\b)"
)
PLACEHOLDER = re.compile(r"\[[^\]]*\]|\{[^}]*\}|<[^>]*>|\$\{")
LIST_SEPARATOR = re.compile(r"\s*[,;]\s*")
BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
# An item longer than this is prose cut at a comma, not an item; a bullet line says by
# its layout that it is an item, so it may be longer.
MAX_ITEM_WORDS = 6
MAX_BULLET_WORDS = 10
# Fixed text that opens a list item: a bare bullet mark on its line, or a label and colon.
LIST_OPENING = re.compile(r"(?:^|\n)[ \t]*[-*•][ \t]*$|:[ \t]*$")
# A line of a list slot longer than this is prose, not an item ("Managing a team of
# five engineers across three sites" is one item).
MAX_LINE_ITEM_WORDS = 16


def sentence_ends(text: str) -> list[re.Match]:
    """Where sentences end in `text`: a full stop, ! or ? (closing quotes or brackets
    included) before a space or the end, except the full stop of an abbreviation."""
    return [m for m in SENTENCE_END.finditer(text) if not _abbreviation_at(text, m.start())]


def _abbreviation_at(text: str, stop: int) -> bool:
    if text[stop] != ".":
        return False
    words = text[: stop + 1].split()
    return bool(words) and words[-1].lstrip("(\"'").lower() in ABBREVIATIONS


def count_sentence_ends(text: str) -> int:
    return len(sentence_ends(text))


def is_finished(text: str, sentences: int, paragraphs: int = 1) -> bool:
    """Whether generation for this slot can stop: enough paragraphs ended or enough
    sentences."""
    return text.lstrip().count("\n\n") >= paragraphs or count_sentence_ends(text) >= sentences


def trim_slot(raw: str, sentences: int) -> str:
    """The first `sentences` whole sentences of the first paragraph, without placeholders,
    else the list the paragraph opens with."""
    text, ended = first_paragraph(raw)
    marked = [bool(BULLET.match(line)) for line in text.split("\n")]
    bullets = marked.index(False) if False in marked else len(marked)  # leading bullet lines
    lines = [BULLET.sub("", line) for line in text.split("\n")]
    # Bullet lines without a full stop are list items ('- Excel'), not sentences.
    if bullets and not sentence_ends(lines[0]):
        listed = whole_list(lines[:bullets], ended or bullets < len(lines), MAX_BULLET_WORDS)
        if listed:
            return listed
    text = " ".join(" ".join(lines).split())  # one paragraph, single spaces, no bullet marks
    kept, start = [], 0
    for m in sentence_ends(text):
        sentence = text[start : m.end()].strip()
        start = m.end()
        if PLACEHOLDER.search(sentence):
            break  # '[Your Name]' and the like: the rest is template talk
        if not re.search(r"[^\W\d_]", sentence):
            continue  # '4.': a cut list number, not a sentence
        kept.append(sentence)
        if len(kept) == sentences:
            break
    if kept:
        return " ".join(kept)
    # No whole sentence: keep the first line if it is a list.
    return whole_list(lines[:1], ended or len(lines) > 1, MAX_ITEM_WORDS)


def first_paragraph(raw: str) -> tuple[str, bool]:
    """The slot's first paragraph, up to a stop line or answer talk, and whether the model
    ended it itself (a paragraph break or a stop follows it); otherwise the token limit
    cut its last line."""
    raw = raw.lstrip()
    text = raw.split("\n\n", 1)[0]
    found = (STOP_LINE.search(text), HEADING_LINE.search(text), ANSWER_TALK.search(text))
    stops = [m.start() for m in found if m]
    if stops:
        text = text[: min(stops)]
    return text, len(text) < len(raw)


def trim_items(raw: str, opening: str) -> str:
    """A list slot's whole lines, one item each, when trim_slot keeps nothing; '' when the
    fixed text before the slot (`opening`) does not open a list item.

    After "Key responsibilities:\n- " the model continues the bullet the prompt opened
    ("Managing a team\n- Building client relations\n\n"): the first line's mark is in the
    prompt, and items without a full stop are neither sentences nor a one-line list, so
    trim_slot drops them all and the slot ends empty. Lines are kept up to the first that
    is blank, too long to be an item or a heading ("Awards:"); the last only when the
    model ended it. After a bullet they stay bullet lines, after a label "a, b".
    """
    if opening.rstrip(" \t").endswith(","):
        return continued_list(raw)
    if not LIST_OPENING.search(opening):
        return ""
    text, ended = first_paragraph(raw)
    lines = text.split("\n") if ended else text.split("\n")[:-1]
    items, seen = [], set()
    for line in lines:
        item = " ".join(BULLET.sub("", line).strip(" *_;,").split())
        too_long = len(item.split()) > MAX_LINE_ITEM_WORDS
        if not item or item.endswith(":") or too_long or PLACEHOLDER.search(item):
            break
        if item.lower() not in seen:
            seen.add(item.lower())
            items.append(item)
    bullet = not opening.rstrip(" \t").endswith(":")
    return ("\n- " if bullet else ", ").join(items)


def continued_list(raw: str) -> str:
    """The items a slot adds to a list its fixed text opened ("Skills: SQL, Oracle, "):
    its first line's whole items, one or more, as 'a, b'; '' when the model left the
    line (it starts on a new one) or wrote prose."""
    if raw[:1] == "\n":
        return ""
    text, ended = first_paragraph(raw)
    line = text.split("\n", 1)[0]
    pieces = LIST_SEPARATOR.split(line.strip(" ."))
    if not ended and "\n" not in text:
        pieces = pieces[:-1]  # the token limit cut the last item
    items = [" ".join(p.split()) for p in pieces if p.strip()]
    if not items or any(
        len(i.split()) > MAX_ITEM_WORDS or PLACEHOLDER.search(i) or ":" in i for i in items
    ):
        return ""
    return ", ".join(dict.fromkeys(items))


def whole_list(lines: list[str], ended: bool, max_words: int) -> str:
    """The items of `lines` (split at commas and semicolons too) as 'a, b, c' when there
    are at least two short, distinct whole items, else ''.

    When the token limit cut the last line (not `ended`), its unfinished last item goes:
    the whole last line when there are several (bullet items), else its last piece.
    """
    pieces = [LIST_SEPARATOR.split(line.strip(" .")) for line in lines]
    if not ended:
        pieces = pieces[:-1] if len(pieces) > 1 else [pieces[0][:-1]]
    items, seen = [], set()
    for item in (" ".join(i.strip(" -*•").split()) for line in pieces for i in line):
        if not item:
            continue
        if len(item.split()) > max_words or PLACEHOLDER.search(item):
            return ""
        if item.lower() not in seen:
            seen.add(item.lower())
            items.append(item)
    return ", ".join(items) if len(items) >= 2 else ""


# "12 years", "12+ years", "15-year", "two decades": a span of years a text claims.
YEAR_NUMBERS = {w: n for n, w in enumerate(NUMBER_WORDS)} | {"thirty": 30, "forty": 40, "fifty": 50}
YEARS_CLAIMED = re.compile(
    r"\b(\d{1,3}|" + "|".join(YEAR_NUMBERS) + r")\s*\+?\s*-?\s*(years?|yrs|decades?)\b",
    re.IGNORECASE,
)


def years_claimed(text: str) -> list[int]:
    """Every span of years `text` states, in years ('two decades' is 20)."""
    found = []
    for number, unit in YEARS_CLAIMED.findall(text):
        n = int(number) if number.isdigit() else YEAR_NUMBERS[number.lower()]
        found.append(n * 10 if unit.lower().startswith("decade") else n)
    return found


HEADER_LINE = re.compile(r"^\s*(?:subject|from|to|date)\s*:.*$", re.IGNORECASE | re.MULTILINE)
SIGN_OFF_WORDS = 5  # a last paragraph this short is a sign-off ('Best,\nAnna'), kept whole


def trim_free(raw: str) -> str:
    """A free-form ticket as the model wrote it, minus what a real one would not hold:
    header lines, lines with placeholders, and a last sentence cut by the token limit.
    Empty when fewer than three words are left (the slot is then retried)."""
    text = HEADER_LINE.sub("", raw)
    lines = [line for line in text.split("\n") if not PLACEHOLDER.search(line)]
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", "\n".join(lines)) if p.strip()]
    if (
        paragraphs
        and not sentence_ends(paragraphs[-1][-2:] + " ")
        and len(paragraphs[-1].split()) > SIGN_OFF_WORDS
    ):
        ends = sentence_ends(paragraphs[-1])
        paragraphs[-1] = paragraphs[-1][: ends[-1].end()] if ends else ""
    text = "\n\n".join(p for p in paragraphs if p)
    return text if len(text.split()) >= 3 else ""


def cut_to_words(text: str, words: int) -> str:
    """Whole sentences of `text` until about `words` words are reached (the sentence that
    reaches it is kept); a short last paragraph, the sign-off, is kept whole."""
    paragraphs = text.split("\n\n")
    sign_off = (
        paragraphs.pop()
        if len(paragraphs) > 1 and len(paragraphs[-1].split()) <= SIGN_OFF_WORDS
        else None
    )
    kept, count = [], 0
    for paragraph in paragraphs:
        cuts = [m.end() for m in sentence_ends(paragraph)] + [len(paragraph)]
        start, taken = 0, ""
        for end in cuts:
            if count >= words:
                break
            count += len(paragraph[start:end].split())
            taken, start = paragraph[:end], end
        if taken.strip():
            kept.append(taken.strip())
        if count >= words:
            break
    return "\n\n".join(kept + ([sign_off] if sign_off else []))
