"""`greetings`: a greeting, salutation, sign-off or addressee ("Dear HR Department,",
"Good morning all", "Kind Regards") is never personal data unless it holds a name, and
never the start of a span (synth/data/deid/greetings.yaml). A span inside one is dropped,
or cut to the name it holds; a span starting in one starts after it."""

import re

from synth.deid.lexicon.names import first_names, name_like, name_word
from synth.deid.lexicon.words import greeting_words
from synth.deid.spans import Span

NAME = "greetings"


def apply(text: str, spans: list[Span]) -> list[Span]:
    return without_greetings(text, spans)


# Where a sign-off may start inside a line: after a sentence's end ("… my flight. Kind
# Regards, Anna").
AFTER_SENTENCE = re.compile(r"[.!?]+\s+")


def greeting_regions(text: str) -> list[tuple[int, int]]:
    """(start, end) of each greeting and sign-off: an opener at a line's start with the
    addressee words or names after it, up to its closing mark; a sign-off phrase opening
    a line, or a sentence, whose line holds nothing after it but a name. Phrases match in
    any capitalisation, their words spaced or run together ("Goodmorning")."""
    g = greeting_words()
    regions = []
    offset = 0
    for line in text.splitlines(keepends=True):
        lead = len(line) - len(line.lstrip())
        body = line[lead:]
        start = offset + lead
        if sign_off := _sign_off(body, g):
            regions.append((start, start + sign_off))
        elif m := g["opener"].match(body):
            end = m.end()
            for word in re.finditer(r"\S+", body[m.end() :]):
                core = word.group().rstrip("".join(g["ends"]) + ".")
                closes = word.group() != core or word.group() in g["ends"]
                if core and not (core.lower() in g["plain"] or name_word(core)):
                    break
                end = m.end() + word.end()
                if closes or end - m.end() > 60:
                    break
            regions.append((start, start + end))
        for after in AFTER_SENTENCE.finditer(body):
            if sign_off := _sign_off(body[after.end() :], g):
                regions.append((start + after.end(), start + after.end() + sign_off))
        offset += len(line)
    return sorted(regions)


def _sign_off(body: str, g: dict) -> int:
    """The length of the sign-off phrase `body` opens, when nothing but a name follows it
    on its line; else 0."""
    m = g["sign_off"].match(body)
    if not m:
        return 0
    rest = body[m.end() :].strip()
    return len(m.group().rstrip()) if not rest or name_like(rest) else 0


def without_greetings(text: str, spans: list[Span]) -> list[Span]:
    """Spans with every greeting taken out: a span inside one keeps only the name it holds
    (typed PERSON when it is a known first name), a span starting in one starts after it,
    and a span ending in one ends before it."""
    plain = greeting_words()["plain"]
    regions = greeting_regions(text)
    out = []
    for span in spans:
        for a, b in regions:
            if not span.overlaps(Span(a, b, "", "")):
                continue
            if span.start >= a and span.end <= b:
                names = [
                    m
                    for m in re.finditer(r"[\w'’-]+", text[span.start : span.end])
                    if m.group().lower() not in plain and name_word(m.group())
                ]
                if not names:
                    span = None
                    break
                start, end = span.start + names[0].start(), span.start + names[-1].end()
                words = text[start:end].split()
                kind = "PERSON" if words and words[0] in first_names() else span.type
                span = Span(start, end, kind, span.detector)
            elif span.start >= a:
                span = Span(_after_marks(text, b), span.end, span.type, span.detector)
            elif span.end <= b:
                span = Span(span.start, a, span.type, span.detector)
            if span.end <= span.start:
                span = None
                break
        if span is not None:
            out.append(span)
    return out


def _after_marks(text: str, at: int) -> int:
    while at < len(text) and (text[at].isspace() or text[at] in ",:;!-–—."):
        at += 1
    return at
