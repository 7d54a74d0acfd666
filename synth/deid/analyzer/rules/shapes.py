"""`shapes`: a span whose words have a shape of their own is of its type: an e-mail
address EMAIL, a web address URL, a year or a range of years DATE (a general NER reads
"2016-2019" as a phone), a length of time SPAN_OF_TIME ("three days" is no date). A unit of time alone ("how many
[days]") is no one's data and is left as written."""

import re

from synth.deid.lexicon.words import LENGTH_OF_TIME
from synth.deid.spans import Span

NAME = "shapes"

EMAIL_SHAPE = re.compile(r"(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL_SHAPE = re.compile(
    r"(?:https?:/?/|www\.)\S+|[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|co|edu|gov|eu|de|fr|it|es|uk|ca|in)(?:/\S*)?",
    re.IGNORECASE,
)
# A phone as written in North America or with a country code: "647-778-5978",
# "(650) 440-2812", "+1 (805) 835-6315", "+91-9803972479" (not an ID's groups of digits).
PHONE_SHAPE = re.compile(
    r"(?:\+\d{1,3}[\s-]?(?:\(\d{1,4}\)[\s-]?)?\d[\d\s-]{6,14}\d|\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4})"
)
YEARS_SHAPE = re.compile(
    r"(?:(?:19|20)\d\d|(?:0?[1-9]|1[0-2])[./](?:19|20)\d\d|(?:19|20)\d\d[-/](?:0[1-9]|1[0-2]))"
    r"(?:\s*(?:-|–|—|to|until)\s*(?:(?:19|20)\d\d|present|now|today|(?:0?[1-9]|1[0-2])[./](?:19|20)\d\d))?",
    re.IGNORECASE,
)


# A unit of time and nothing else ("how many [days]", "per [week]"): no length, no date.
UNIT_ALONE = re.compile(
    r"(?:days?|nights?|weeks?|fortnights?|months?|years?|hours?|working days?)", re.IGNORECASE
)


def apply(text: str, spans: list[Span]) -> list[Span]:
    return [shaped(text, s) for s in spans if not unit_alone(text, s)]


def unit_alone(text: str, span: Span) -> bool:
    """Whether a DATE or SPAN_OF_TIME span is a unit of time alone: it says how long
    nothing is (issue 83: "how many days" became "how many a couple of weeks")."""
    words = text[span.start : span.end].strip(" ,.;:!?")
    return span.type in ("DATE", "SPAN_OF_TIME") and UNIT_ALONE.fullmatch(words) is not None


def shaped(text: str, span: Span) -> Span:
    """A span whose words have a shape of their own typed by it, whatever the detector
    said: an e-mail address is EMAIL, a web address URL, a year, a month of a year or a
    range of them DATE (not a phone or an ID), a length of time SPAN_OF_TIME (not a
    date: "three days")."""
    words = text[span.start : span.end].strip()
    shapes = (
        (EMAIL_SHAPE, "EMAIL"),
        (URL_SHAPE, "URL"),
        (YEARS_SHAPE, "DATE"),
        (PHONE_SHAPE, "PHONE"),
    )
    for shape, kind in shapes:
        if shape.fullmatch(words):
            return Span(span.start, span.end, kind, span.detector)
    length = re.sub(
        r"^(?:the\s+)?(?:past|last|next|following|coming|first)\s+", "", words, flags=re.IGNORECASE
    )
    if span.type == "DATE" and LENGTH_OF_TIME.fullmatch(length):
        return Span(span.start, span.end, "SPAN_OF_TIME", span.detector)
    return span
