"""Where a person stands in a text, whatever else a name's words are (a technology, a
greeting's word, a CV's skill): after a title or a salutation, on a sign-off line, as a
CV's first line, after "my colleague", on a referee line (synth/data/deid/person_cues.yaml).

The keep-rules (technologies, resume_words, greetings) drop spans by the words they hold;
a person can be called Julia Rust, Ruby Swift or June Florence. Issue 93 found each of
those left in clear. A keep-rule asks `person_cue` first and yields to it."""

import functools
import re

from synth import DATA_DIR
from synth.deid.lexicon.words import greeting_words
from synth.io.files import read_yaml

# Up to five capitalised words on a line (a salutation and a title may open the run: "Dear
# Ms Ruby Chen"), a hyphen or apostrophe inside a word.
NAME_RUN = re.compile(r"[A-ZÀ-Þ][\w'’.-]*(?:[ \t]+[A-ZÀ-Þ][\w'’.-]*){0,4}")


@functools.cache
def person_cues() -> dict:
    """The cue patterns: a title just before, a relation just before, a referee line."""
    from synth.deid.lexicon.work_roles import work_roles

    doc = read_yaml(DATA_DIR / "deid" / "person_cues.yaml", "person cues")
    relations = sorted(set(doc["relations"]) | set(work_roles()["group_of"]), key=len, reverse=True)
    alternation = lambda words: "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return {
        # as a title is written ("Ms", "ms"), never in capitals ("MS Student" is a degree)
        "title": re.compile(
            rf"\b(?:{alternation([t.capitalize() for t in doc['titles']] + doc['titles'])})\.?[ \t]+$"
        ),
        "relation": re.compile(
            rf"\b(?:my|our|his|her|their|your)\s+(?:[a-z]+\s+)?(?:{alternation(relations)}),?[ \t]+$",
            re.IGNORECASE,
        ),
        "referee": re.compile(
            rf"^[ \t*_#•-]*(?:{alternation(doc['referee_lines'])})\b[^\n]*$", re.IGNORECASE
        ),
    }


def person_cue(text: str, start: int, end: int, cv: bool = False) -> str | None:
    """The cue that the words at [start, end) name a person, or None: `title`,
    `salutation`, `sign-off`, `relation`, `referee line`, `cv first line` (when `cv`: the
    document's first words)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = text[line_start:start]
    cues = person_cues()
    if cues["title"].search(before):
        return "title"
    if cues["relation"].search(text[max(0, start - 60) : start]):
        return "relation"
    g = greeting_words()
    lead = before.lstrip()
    opener = g["opener"].match(lead)
    if opener and _only_addressees(lead[opener.end() :], g):
        return "salutation"
    sign_off = g["sign_off"].match(lead)
    if sign_off and not lead[sign_off.end() :].strip():
        return "sign-off"
    if (
        not lead.strip()
        and not text[end:line_end].strip(" \t,.")
        and _after_sign_off(text, line_start)
    ):
        return "sign-off"
    if cues["referee"].match(text[line_start:line_end]):
        return "referee line"
    if cv and _opens_the_document(text, start):
        return "cv first line"
    return None


# What may stand before a CV owner's name: nothing, or a "Resume"/"CV"/"Name:" label.
OWNER_LEAD = re.compile(
    r"\s*(?:(?:curriculum\s+vitae|resume|résumé|cv)\b\W*)?(?:name\s*:\s*)?", re.IGNORECASE
)


def _opens_the_document(text: str, start: int) -> bool:
    """Whether the span is the document's first words (a CV's owner; a flat CV is one
    line, so its first line is the whole CV)."""
    return OWNER_LEAD.fullmatch(text[:start]) is not None


def _only_addressees(words: str, g: dict) -> bool:
    """What stands between a salutation and a name: titles and marks only ("Dear Ms ")."""
    titles = person_cues()["title"]
    rest = titles.sub("", words + " ").strip(" \t,")
    return not rest


def _after_sign_off(text: str, line_start: int) -> bool:
    """Whether the last non-empty line before `line_start` is a sign-off alone
    ("Kind regards,")."""
    previous = text[:line_start].rstrip().rsplit("\n", 1)[-1].strip()
    g = greeting_words()
    m = g["sign_off"].fullmatch(previous + " ") or g["sign_off"].fullmatch(previous)
    return bool(previous) and m is not None
