"""`evidence`: in a CV, a name the general NER (presidio's small spaCy model) alone
found is replaced only with a second sign that it names someone's employer, school,
city or self; a region, a state or a country is no one's personal data.

On 220 held-out resumes, 74 % of the replacements touched no gold span, most of them
presidio's guesses alone: Indian states, products and tools ("Microsoft Office", an
ERP), a bullet's first verb ("• Worked"), headings ("ADDITIONAL INFORMATION"), "Email"
(issue 93). A second sign is any of:
- another detector's span on the same words (the built detector, a rule's own finding);
- the words themselves: an organisation's word ("University", "Ltd"), a known first or
  last name for a PERSON, a city or airport for a LOCATION (synth.deid.lexicon);
- where they stand: after "at", "for", "with", "in", "from", "of", "joined", "@" or a
  label ("Company:", "Employer -", "Organizers:"), on a line that holds a year (a job or education line), or
  where a person stands (synth.deid.lexicon.person_cues).
The rule runs on every detector's spans before they are merged (the other detectors'
spans are the evidence), and only in a CV; patterns (e-mails, phones, URLs, ids) and
dates need no second sign. Without one the span is left as written; the rules after
it (cv_owner, cv_facts, job_lines) still add what they find themselves."""

import re

from wordfreq import zipf_frequency

from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.lexicon.names import first_names, last_names
from synth.deid.lexicon.person_cues import person_cue
from synth.deid.lexicon.places import gazetteer, regions
from synth.deid.lexicon.words import organisation_words, type_words
from synth.deid.lexicon.years import only_date_words
from synth.deid.spans import Span
from synth.deid.types import NAME_TYPES

NAME = "evidence"
ALONE = "presidio"  # the detector whose named-entity guess needs a second sign
# Detectors whose span is a sign of its own: the built detector, a person's cue, the owner.
SURE = ("ner", "person cues", "cv owner")
BEFORE = re.compile(
    r"(?:\b(?:at|for|with|in|from|of|joined|join|by|under)\s+(?:the\s+)?|@\s*"
    r"|\b(?:company|employer|organi[sz]ation|client|university|college|school|institute"
    r"|institution|board|name|location|city|address|organi[sz]ers?|supervisors?|advis[eo]rs?"
    r"|mentors?|managers?|referees?|contact|guides?)\s*[:\-–]\s*)$",
    re.IGNORECASE,
)
# A list's later item after "at", "for", "with", "including": "at Infosys, Wipro".
LIST_AFTER = re.compile(
    r"\b(?:at|for|with|joined|including|clients?:?)\s+(?:[^,;|\n]{1,40}[,;|]\s*(?:and\s+)?)+$",
    re.IGNORECASE,
)
# Before an employer's name: an acronym there is the company ("Engineer at SAP").
EMPLOYER_BEFORE = re.compile(
    r"(?:\b(?:at|joined|join)\s+|\b(?:company|employer)\s*[:\-–]\s*)$", re.IGNORECASE
)
ACRONYM = re.compile(r"[A-Z][A-Z0-9&-]{1,6}")
CITY_STATE = re.compile(r"\b[A-Z][\w.'-]+,\s*[A-Z]{2}\b")
# How near a year must stand to make a name part of a dated entry: a flat CV is one line.
NEAR = 60
YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def apply(text: str, spans: list[Span]) -> list[Span]:
    if not spans or not cv_shaped(text):
        return spans
    return [
        s
        for s in spans
        if not _region(text, s)
        and not _in_a_skill_list(text, s)
        and not _unsupported(text, s, spans)
    ]


def _in_a_skill_list(text: str, span: Span) -> bool:
    """A name-type span that is an item of a list (commas, pipes, semicolons) whose item
    next to it is a technology or a product ("Oracle, SQL Server, PowerShell, Toad"): a
    skill, whoever found it, unless a person stands there."""
    if span.type not in NAME_TYPES or span.detector in ("person cues", "cv owner"):
        return False
    if len(text[span.start : span.end].split()) > 4:
        return False
    left = re.search(r"([^,;|\n:]{1,40}?)\s*[,;|]\s*$", text[max(0, span.start - 60) : span.start])
    right = re.match(r"\s*[,;|]\s*([^,;|\n]{1,40})", text[span.end : span.end + 60])
    words = type_words()
    known = words["technologies"] | words["product_words"]

    def skill(item: str) -> bool:
        parts = item.lower().split()
        return bool(parts) and all(p.strip(".()") in known for p in parts[:2])

    neighbours = [left[1].split()[-2:] if left else [], right[1].split()[:2] if right else []]
    return any(skill(" ".join(n)) for n in neighbours) and (
        person_cue(text, span.start, span.end, True) is None
    )


def _region(text: str, span: Span) -> bool:
    """A span that is only a region, a state or a country (where no one is found)."""
    if span.type not in NAME_TYPES:
        return False
    words = " ".join(text[span.start : span.end].strip(" .,;:()*_").split()).lower()
    return words in regions() and person_cue(text, span.start, span.end, True) is None


def _unsupported(text: str, span: Span, spans: list[Span]) -> bool:
    """Whether `span` is presidio's name-type guess alone, with no second sign; or a
    bullet's opening verb ("• Worked", "Installed"), whatever stands beside it."""
    if span.detector != ALONE or span.type not in NAME_TYPES:
        return False
    if any(s.detector != ALONE and s.overlaps(span) for s in spans):
        return False
    if _its_words(text, span):
        return False
    return _opens_with_a_verb(text, span) or not _where_it_stands(text, span)


def _opens_with_a_verb(text: str, span: Span) -> bool:
    """Whether the span opens with a common English word in -ed, or "Responsible": how a
    CV's bullet starts ("• Worked on", "Responsible for"), never a name."""
    first = re.match(r"[•·*\-\s]*([A-Za-z]+)", text[span.start : span.end])
    if first is None:
        return False
    word = first[1].lower()
    common = zipf_frequency(word, "en") >= 3.0
    return common and (word.endswith("ed") or word in ("responsible", "involved"))


def _its_words(text: str, span: Span) -> bool:
    """A sign in the words: an organisation's word, an acronym the lexicon does not list
    ("GNDU", "CCIRC": a school or a lab), a city or airport, a street number or a
    "City, ST" pair, a known first or last name or an initial ("F. Chevy")."""
    written = text[span.start : span.end]
    words = re.findall(r"[\w'’&.-]+", written)
    lower = [w.lower().strip(".") for w in words]
    if any(w in organisation_words() for w in lower):
        return True
    if len(words) == 1 and ACRONYM.fullmatch(words[0]):
        return True
    if " ".join(lower) in gazetteer() or any(w in gazetteer() for w in lower if len(w) > 3):
        return True
    if CITY_STATE.search(written) or re.search(r"\d", written):
        return True
    if span.type in ("PERSON", "ORGANIZATION", "NRP"):
        names = [w for w in words if w in first_names() or w in last_names()]
        return bool(names) or bool(re.match(r"[A-Z]\.\s", written))
    return False


def employer_before(text: str, start: int) -> bool:
    """Whether the words before `start` on its line say an employer's name follows."""
    line_start = text.rfind("\n", 0, start) + 1
    return EMPLOYER_BEFORE.search(text[max(line_start, start - 40) : start]) is not None


def _where_it_stands(text: str, span: Span) -> bool:
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line_end = len(text) if line_end < 0 else line_end
    before = text[max(line_start, span.start - 120) : span.start]
    if BEFORE.search(before[-40:]) or LIST_AFTER.search(before):  # "at Infosys, [Wipro]"
        return True
    previous = text[text.rfind("\n", 0, max(0, line_start - 1)) + 1 : line_start]
    dated_above = YEAR.search(previous) and only_date_words(previous.strip(" \t\n*_#>:|"))
    beside = (
        text[max(line_start, span.start - NEAR) : span.start]
        + " "
        + text[span.end : min(line_end, span.end + NEAR)]
    )
    if YEAR.search(beside) or dated_above:
        return True  # a job or education entry (its dates beside it, or alone on the line above)
    return person_cue(text, span.start, span.end, True) is not None
