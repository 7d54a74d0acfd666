"""`addressed`: a name where a person stands is a PERSON, whatever list its words are on
(synth.deid.lexicon.person_cues): after a title or a salutation ("Dear Ms Ruby Chen,",
"Hi Ruby,"), on a sign-off line ("Thanks, Julia"), after "my colleague", on a referee
line. A name-type span there is retyped PERSON; a name there that no detector found (the
general NER reads greetings poorly) is added, when its first word is a known first or
last name, a title stands before it, or, after a salutation or a sign-off, its first
word is rare in English. A greeting's own words ("Dear Sir/Madam", "Hi
team") are never a name."""

import re

from wordfreq import zipf_frequency

from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.lexicon.names import first_names, last_names
from synth.deid.lexicon.person_cues import NAME_RUN, person_cue
from synth.deid.lexicon.words import greeting_words
from synth.deid.spans import Span, resolve
from synth.deid.types import NAME_TYPES

NAME = "addressed"
DETECTOR = "person cues"
# A word rarer than this in English (wordfreq's Zipf scale) reads as a name after a
# salutation ("Hi Ruby": 3.98); a commoner one as a word ("Dear Hiring Manager": 4.23).
RARE_ZIPF = 4.2
# Cues strong enough to add a name no detector found.
ADDING = ("title", "salutation", "sign-off", "relation", "referee line")


def apply(text: str, spans: list[Span]) -> list[Span]:
    cv = cv_shaped(text)
    out = []
    for span in spans:
        if span.type in NAME_TYPES and span.type != "PERSON" and _cue(text, span, cv):
            span = Span(span.start, span.end, "PERSON", span.detector, span.score)
        out.append(span)
    for start, end in _cued_names(text):
        if not any(s.start < end and start < s.end for s in out):
            out.append(Span(start, end, "PERSON", DETECTOR))
    return resolve(out)


def _cue(text: str, span: Span, cv: bool) -> str | None:
    cue = person_cue(text, span.start, span.end, cv)
    # the cv_owner rule decides a CV's first line; a referee line lists employers too
    return cue if cue not in ("cv first line", "referee line") else None


def _cued_names(text: str) -> list[tuple[int, int]]:
    """[start, end) of each run of capitalised words, not a greeting's own words, that
    a cue of ADDING names as a person and that reads as a name."""
    plain = greeting_words()["plain"]
    found = []
    for m in NAME_RUN.finditer(text):
        parts = list(re.finditer(r"\S+", m.group()))
        while parts and parts[0].group().strip(".,'’-").lower() in plain:  # "Dear Ms Ruby"
            parts.pop(0)
        while parts and parts[-1].group().strip(".,'’-").lower() in plain:  # "Ruby Team"
            parts.pop()
        words = [p.group().strip(".,'’-") for p in parts]
        if not words or any(w.lower() in plain for w in words):
            continue
        start = m.start() + parts[0].start()
        end = m.start() + parts[-1].start() + len(parts[-1].group().rstrip(".,'’-"))
        cue = person_cue(text, start, end)
        if cue not in ADDING:
            continue
        known = words[0] in first_names() or words[0] in last_names()
        rare = zipf_frequency(words[0].lower(), "en") < RARE_ZIPF  # "Ruby", not "Hiring"
        if known or cue == "title" or (rare and cue in ("salutation", "sign-off")):
            found.append((start, end))
    return found
