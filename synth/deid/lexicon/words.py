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
        # the words of a phrase as people type them: spaced, on two lines, or run
        # together ("Goodmorning", "Kindregards")
        longest_first = sorted((p.lower() for p in phrases), key=len, reverse=True)
        return "|".join(re.escape(p).replace(r"\ ", r"\s*") for p in longest_first)

    return {
        "opener": re.compile(rf"(?:{alternation(doc['openers'])})(?![\w'])", re.IGNORECASE),
        "sign_off": re.compile(
            rf"(?:{alternation(doc['sign_offs'])})(?![\w'])[\s,.!]*", re.IGNORECASE
        ),
        "ends": set(doc["ends"]),
        "plain": {
            w
            for p in doc["openers"] + doc["sign_offs"] + doc["addressees"]
            for w in p.lower().split() + [p.lower().replace(" ", "")]
        },
    }


@functools.cache
def airport_words() -> frozenset[str]:
    """Words that end an airport's name (synth/data/deid/places.yaml)."""
    doc = read_yaml(DATA_DIR / "deid" / "places.yaml", "places")
    return frozenset(w.lower() for w in doc["airport_words"])


@functools.cache
def resume_words() -> dict[str, frozenset[str]]:
    """Words of a resume that name no one (synth/data/deid/resume_words.yaml): `words`, the
    skills, degrees, titles, headings, bullets and technologies together (never an
    employer's name, synth/data/cv/companies.yaml); `frequencies`, how often and how long."""
    doc = read_yaml(DATA_DIR / "deid" / "resume_words.yaml", "resume words")
    cv = DATA_DIR / "cv"
    words = {str(w).lower() for key in ("degrees", "subjects", "sections") for w in doc[key]}
    words |= type_words()["technologies"] | heading_words()
    for name in ("field_words.txt", "title_words.txt", "title_heads.txt"):
        lines = (cv / name).read_text(encoding="utf-8").splitlines()
        words |= {w.lower() for line in lines if not line.startswith("#") for w in line.split()}
    from synth.deid.lexicon.names import first_names
    from synth.deid.lexicon.places import gazetteer

    roles = read_yaml(cv / "roles.yaml", "CV roles")
    skills = set()
    for role in roles.values():
        for phrase in [role.get("title", "")] + list(role.get("skills", [])):
            skills |= {w.lower() for w in str(phrase).replace(",", " ").split()}
    # a skill's word that is also a place or a first name ("Palo Alto") is not taken
    words |= skills - gazetteer() - {n.lower() for n in first_names()}
    employers = read_yaml(cv / "companies.yaml", "CV companies")
    for name, aliases in employers.items():  # one-word names: Oracle, SAP, Infosys, TCS
        words -= {str(n).lower() for n in [name, *aliases] if len(str(n).split()) == 1}
    words -= {"&", "and", "of"}  # small words are read as function words by the rule
    return {
        "words": frozenset(words),
        "frequencies": frozenset(str(w).lower() for w in doc["frequencies"]),
    }
