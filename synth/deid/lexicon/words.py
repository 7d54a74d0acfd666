"""Words that say what a span is: organisations' and technologies' words
(synth/data/deid/type_words.yaml), CV section headings (cv_headings.yaml), greetings and
sign-offs (greetings.yaml), the words that end an airport's name (places.yaml), and a
length of time as people write it."""

import functools
import re

from synth import DATA_DIR
from synth.calendar import NUMBER_WORDS
from synth.io.files import read_yaml

# A length of time: a count or an amount word, then a unit ("about three weeks", "a day
# off", "the rest of the week"), which Presidio reads as a date.
LENGTH_OF_TIME = re.compile(
    rf"(?:(?:about|around|roughly|nearly|almost|over|under|at least|up to)\s+)?"
    rf"(?:\d+|{'|'.join(NUMBER_WORDS[1:13])}|a|an|a couple of|couple of|a few|few|several"
    rf"|the rest of the|the rest of this|the whole)\s+"
    rf"(?:more\s+)?(?:days?|nights?|weeks?|fortnights?|months?|years?|working days?)(?:\s+off)?",
    re.IGNORECASE,
)


@functools.cache
def type_words() -> dict[str, frozenset[str]]:
    doc = read_yaml(DATA_DIR / "deid" / "type_words.yaml", "type words")
    return {key: frozenset(str(w).lower() for w in words) for key, words in doc.items()}


def organisation_words() -> frozenset[str]:
    return type_words()["organisation_words"]


@functools.cache
def heading_words() -> frozenset[str]:
    doc = read_yaml(DATA_DIR / "deid" / "cv_headings.yaml", "CV headings")
    return frozenset(w.lower() for h in doc["headings"] for w in h.split())


@functools.cache
def greeting_words() -> dict:
    """Patterns of an opener and a sign-off, the marks that close one, and every word of
    a greeting phrase or addressee."""
    doc = read_yaml(DATA_DIR / "deid" / "greetings.yaml", "greetings")

    def alternation(phrases) -> str:
        longest_first = sorted((p.lower() for p in phrases), key=len, reverse=True)
        return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in longest_first)

    return {
        "opener": re.compile(rf"(?:{alternation(doc['openers'])})(?![\w'])", re.IGNORECASE),
        "sign_off": re.compile(
            rf"(?:{alternation(doc['sign_offs'])})(?![\w'])[\s,.!]*", re.IGNORECASE
        ),
        "ends": set(doc["ends"]),
        "plain": {
            w
            for p in doc["openers"] + doc["sign_offs"] + doc["addressees"]
            for w in p.lower().split()
        },
    }


@functools.cache
def airport_words() -> frozenset[str]:
    """Words that end an airport's name (synth/data/deid/places.yaml)."""
    doc = read_yaml(DATA_DIR / "deid" / "places.yaml", "places")
    return frozenset(w.lower() for w in doc["airport_words"])
