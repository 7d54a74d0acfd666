"""Consistent surrogates for one document: fakes of the same type, in the same shape.

Within a document the same original (same type, same words up to case and spacing) gets
the same surrogate everywhere, so "Paul ... Paul" stays one person; a first name alone
gets the first name of the full name it belongs to when that was seen first. Documents
are independent: each draws from its own generator, seeded by the run's seed and the
document's id, so a rerun gives the same output and nothing links two documents.

Dates move by one offset per document (−180…+180 days, never 0), written in the form
they had (03/06/2027 stays dd/mm/yyyy, "the 3rd of March" stays an ordinal, "next
Monday" moves its weekday), so intervals between dates survive; dates without a day (a
CV's "Jan 2016 to Mar 2017", "Summer 2018", "2016-Present") move back the document's
whole number of years (synth.deid.lexicon.years). A DATE span read as no date is
never given random digits: its words are kept, or it is tagged, and `notes` says which. Money is scaled by one
factor per document (0.85…1.15) and written with the original's currency, grouping and
"k"; percentages move by a few points and stay within 0–100. Health reasons and life
events become another value of their kind from the lay-phrase lists; a complaint and a
shift change's reason a neutral phrase of their kind (synth/data/deid/neutral_phrases.yaml),
a connective that opens the clause kept; a length of time another count of its unit.
An organisation becomes one of its kind (a university for a university, a bank for a
bank: the words from its organisation word on kept). Anything without a shape of its own gets Faker's fake in the document's locale, and digits and letters of
ids are redrawn one for one.
"""

import datetime as dt
import functools
import hashlib
import random
import re

import numpy as np
from faker import Faker

from synth import DATA_DIR
from synth.calendar import MONTH_WORD, NUMBER_WORDS, ordinal, shift_date
from synth.deid.lexicon.connectives import opening_connective
from synth.deid.lexicon.words import LENGTH_OF_TIME, organisation_words, type_words
from synth.deid.lexicon.years import moved_years
from synth.deid.parsing import parsed
from synth.io.files import read_yaml
from synth.kinds.tickets.forms import load_catalogue

# Between the two ends of a date range, tried in turn: spaced words and dashes, an en or
# em dash; then, inside an end, a hyphen after a day or a year ("3-7 March",
# "03/03/2024-07/03/2024"). Captured: a range is written back with its own separators.
RANGE_SEPARATORS = [
    re.compile(r"(\s+(?:to|until|till|through|and|-)\s+|\s*[–—]\s*|\s*\n\s*)", re.IGNORECASE),
    re.compile(r"((?<=^\d)-|(?<=^\d\d)-|(?<=\dst|\dnd|\drd|\dth)-|(?<=\d{4})-(?=\d{1,2}[/.]))"),
]
UNIT = r"days?|nights?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|secs?"
# A count of a unit of time a date detector reads as a date ("15 minutes", "2 weeks").
COUNT_OF_TIME = re.compile(rf"\b\d+\s*(?:{UNIT})\b", re.IGNORECASE)
LOCALES = {"US": "en_US", "GB": "en_GB", "DE": "de_DE", "IT": "it_IT", "ES": "es_ES",
           "FR": "fr_FR", "NL": "nl_NL"}  # fmt: skip


@functools.cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def document_rng(seed: int, doc_id: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{seed}:{doc_id}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


class Surrogates:
    """The surrogates of one document; `key` maps (type, original) to what replaced it."""

    def __init__(
        self, seed: int, doc_id: str, country: str = "US", month_first: bool | None = None
    ):
        self.rng = document_rng(seed, doc_id)
        self.locale = LOCALES.get(country, "en_US")
        self.random = random.Random(int(self.rng.integers(2**31)))  # the fakes' own draws
        self.month_first = country == "US" if month_first is None else month_first
        offset = int(self.rng.integers(1, 181)) * (1 if self.rng.integers(2) else -1)
        self.date_offset = dt.timedelta(days=offset)
        self.money_factor = float(self.rng.uniform(0.85, 1.15))
        # Years written alone (a CV's "2016-2019") move back 10 to 19 years, one amount a
        # document, from the date offset (no draw of its own): far enough that a CV's
        # other years are not written back, near enough to read as a career.
        self.years_back = 10 + abs(offset) % 10
        self.percent_shift = float(self.rng.choice([-3, -2, -1, 1, 2, 3]))
        self.key: dict[tuple[str, str], str] = {}
        self.role_swaps: dict[str, str] = {}  # a role at work -> its surrogate role
        self.used_phrases: set[str] = set()  # neutral phrases written in this document
        # (type, original's words) -> what was done, where no fake of the type fits
        self.notes: dict[tuple[str, str], str] = {}
        self._replacing: tuple[str, str] = ("", "")

    @property
    def faker(self):
        """The locale's Faker drawing from this document's own `random`: one Faker per
        locale and process (making one costs 1.7 ms, a fifth of a ticket's surrogates),
        the same fakes as a Faker of its own seeded so."""
        shared = _faker(self.locale)
        shared.random = self.random
        return shared

    def replace(self, type_: str, original: str) -> str:
        from synth.deid.lexicon.work_roles import role_surrogate

        norm = " ".join(original.lower().split())
        if type_ == "PERSON":  # "my manager" -> "my team lead", "My manager" -> "My team lead"
            role = role_surrogate(original, self.role_swaps, self._pick)
            if role is not None:
                self.key[(type_, norm)] = role
                return role
        if (type_, norm) not in self.key:
            self._replacing = (type_, norm)
            self.key[(type_, norm)] = self._new(type_, original)
        return self.key[(type_, norm)]

    # --- one fake per type -------------------------------------------------------------

    def _new(self, type_: str, original: str) -> str:
        make = {
            "PERSON": self._person,
            "EMAIL": lambda o: self.faker.email(),
            "PHONE": lambda o: self._shape(o),
            "URL": lambda o: self.faker.url(),
            "ID": lambda o: self._shape(o),
            "ORGANIZATION": self._organisation,
            "NRP": lambda o: self.rng.choice(["European", "American", "Asian", "African"]),
            "LOCATION": lambda o: self.faker.city(),
            "DATE": self._date,
            "MONEY": self._money,
            "PERCENT": self._percent,
            "HEALTH": lambda o: self._listed("health_reason", o),
            "LIFE_EVENT": lambda o: self._listed("life_event", o),
            "CONDUCT": self._conduct,
            "CIRCUMSTANCE": self._circumstance,
            "SPAN_OF_TIME": self._span_of_time,
            "OCCUPATION": lambda o: self.faker.job(),
        }.get(type_, lambda o: f"[{type_}]")
        return str(make(original))

    def _person(self, original: str) -> str:
        words = original.split()
        if len(words) == 1:  # a first name seen earlier as part of a full name keeps pairing
            for (t, norm), fake in self.key.items():
                if t == "PERSON" and norm.split()[0] == original.lower() and " " in fake:
                    return fake.split()[0]
            return self.faker.first_name()
        return f"{self.faker.first_name()} {self.faker.last_name()}"

    def _organisation(self, original: str) -> str:
        """An organisation of the original's kind: a university for a university, a
        college for a college, a bank for a bank ("Sinhgad College of Engineering" ->
        "Hodges College of Engineering", "University of Mumbai" -> "University of Lake
        Anne"). Only generic words are kept (the organisation word, a field, "of"): a name
        in them ("University of Southern Mississippi") is never. Else Faker's company."""
        words = original.split()
        kinds = organisation_words()
        at = next((i for i, w in enumerate(words) if w.lower().strip(".,") in kinds), None)
        if at is None:
            return self.faker.company()
        kind = words[at].strip(".,")
        tail = words[at:]
        if at > 0 and all(
            w.lower().strip(".,()") in kinds | type_words()["generic_words"] for w in tail
        ):
            return " ".join([self.faker.last_name(), *tail])  # "… College of Engineering"
        if len(words) > at + 1 and words[at + 1].lower() == "of":  # "University of …"
            return f"{kind} of {self.faker.city()}"
        return f"{self.faker.last_name()} {kind}"

    def _shape(self, original: str) -> str:
        """Every digit and letter redrawn, separators kept: +49 170 1234567 → +31 804 5512093."""
        digits, letters = "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        out = []
        for ch in original:
            if ch.isdigit():
                out.append(digits[int(self.rng.integers(10))])
            elif ch.isalpha():
                new = letters[int(self.rng.integers(26))]
                out.append(new if ch.isupper() else new.lower())
            else:
                out.append(ch)
        return "".join(out)

    def _listed(self, kind: str, original: str) -> str:
        """Another value of the lay-phrase list of `kind`, after the connective that opens
        the original ("due to [a bad flu]"); a whole clause ("[my mum had a fall]", "[i
        tested positive for covid]") becomes a neutral clause of its type
        (synth/data/deid/neutral_phrases.yaml), so the sentence still reads."""
        values = load_catalogue().lay[kind]
        phrases = sorted(set(values) | {p for ps in values.values() for p in ps})
        connective, form = opening_connective(original)
        if connective is None and is_clause(original):
            clauses = neutral_phrases()["CLAUSES"][kind]
            written = self._pick_unused(clauses)
            return written[0].upper() + written[1:] if original[:1].isupper() else written
        lead = f"{connective} " if form == "phrase" else ""
        others = [p for p in phrases if p.lower() != original.lower()]
        return lead + others[int(self.rng.integers(len(others)))]

    def _pick(self, phrases: list[str]) -> str:
        return phrases[int(self.rng.integers(len(phrases)))]

    def _pick_unused(self, phrases: list[str]) -> str:
        """A neutral phrase this document has not used yet while one is left: two clauses
        never read as the same phrase twice."""
        fresh = [p for p in phrases if p not in self.used_phrases] or phrases
        chosen = self._pick(fresh)
        self.used_phrases.add(chosen)
        return chosen

    def _conduct(self, original: str) -> str:
        """What a person did, as a neutral predicate of the shape of the original's first
        verb (past, present, gerund, base: synth/data/deid/neutral_phrases.yaml), so it
        reads after the subject the writer wrote; a pronoun subject that opens the clause
        ("he keeps …", "I keep …") kept, and the predicate agreeing with it; a whole
        sentence (the `readable` rule's) a neutral sentence."""
        phrases = neutral_phrases()["CONDUCT"]
        words = original.split()
        first = words[0] if words else ""
        end = original.rstrip()[-1] if original.rstrip()[-1:] in (".", "!", "?") else ""
        if first.lower() in ("i", "i've", "i'm"):
            return self._pick_unused(phrases["first_person"]) + end
        pronoun = first.lower() in neutral_phrases()["subject_pronouns"]
        if not pronoun and _a_sentence(original):  # "[This email has been …]": a sentence
            return self._pick_unused(phrases["clause"]) + end
        subject = f"{first} " if pronoun else ""
        shape = predicate_shape(original)
        if first.lower() in ("they", "we", "they're") and shape in ("after_person", "base"):
            shape = "plural"
        return subject + self._pick_unused(phrases[shape])

    def _circumstance(self, original: str) -> str:
        """Why the writer needs a change, as a neutral phrase of the clause's form: after
        its own connective ("due to …", "to …"), or a whole clause."""
        phrases = neutral_phrases()
        connective, form = opening_connective(original)
        if connective is None:
            return self._pick_unused(phrases["CIRCUMSTANCE"]["clause"])
        return f"{connective} {self._pick_unused(phrases['CIRCUMSTANCE'][form])}"

    def _span_of_time(self, original: str) -> str:
        """Another count of the same unit ("3 days off" → "4 days off", "a day off" →
        "two days off", "a couple of weeks" → "a few weeks"); a length with no count ("a
        fortnight") one of the listed ones."""
        words = "|".join(NUMBER_WORDS[1:13])
        m = re.search(rf"\b(\d+|{words}|an?)\s*({UNIT})\b", original, re.IGNORECASE)
        if m is None:
            swapped = {"a couple of": "a few", "a few": "a couple of"}
            for old, new in swapped.items():
                if re.search(rf"\b{old}\b", original, re.IGNORECASE):
                    return re.sub(rf"\b{old}\b", new, original, count=1, flags=re.IGNORECASE)
            others = [p for p in neutral_phrases()["SPAN_OF_TIME"] if p != original.lower()]
            return self._pick(others)
        number, unit = m.group(1), m.group(2)
        lower = number.lower()
        value = (
            1
            if lower in ("a", "an")
            else int(number)
            if number.isdigit()
            else NUMBER_WORDS.index(lower)
        )
        new = max(1, value + int(self.rng.choice([-1, 1, 2])))
        new = new if new != value else value + 1
        written = str(new) if number.isdigit() or new >= len(NUMBER_WORDS) else NUMBER_WORDS[new]
        singular = unit[:-1] if unit.lower().endswith("s") else unit
        unit = singular if new == 1 else singular + "s"
        return original[: m.start()] + f"{written} {unit}" + original[m.end() :]

    def _money(self, original: str) -> str:
        return re.sub(r"\d[\d,. ]*\d|\d", lambda m: self._scaled(m.group()), original, count=1)

    def _scaled(self, number: str) -> str:
        """The amount times the document's factor, grouped and rounded like the original."""
        if m := re.fullmatch(r"(\d+)([.,])(\d)", number):  # 67.3 (of 67.3k)
            value = float(f"{m.group(1)}.{m.group(3)}") * self.money_factor
            return f"{value:.1f}".replace(".", m.group(2))
        group = next((c for c in number if c in ",. "), "")
        value = int(re.sub(r"[,. ]", "", number))
        scaled = max(1, round(value * self.money_factor, -2 if value >= 1000 else 0))
        return f"{int(scaled):,}".replace(",", group) if group else str(int(scaled))

    def _percent(self, original: str) -> str:
        def shifted(m):
            value = float(m.group().replace(",", "."))
            new = min(max(value + self.percent_shift, 0.0), 100.0)
            text = f"{new:g}" if "." not in m.group() and "," not in m.group() else f"{new:.1f}"
            return text.replace(".", ",") if "," in m.group() else text

        return re.sub(r"\d+(?:[.,]\d+)?", shifted, original, count=1)

    def _date(self, original: str) -> str:
        """Every date in the span moved by the document's one offset, a range end to end,
        so intervals survive; a date without a day (a CV's "Jan 2016 - Present") moves back
        the document's whole years (synth.deid.lexicon.years). A length of time a date
        detector typed as a date ("about three weeks") is one. What reads as no date is
        never given random digits: `notes` says what it became."""
        if LENGTH_OF_TIME.fullmatch(original.strip()):
            return self._span_of_time(original)
        if COUNT_OF_TIME.search(original) and not re.search(
            rf"\b(?:{MONTH_WORD})\b|(?:19|20)\d\d", original, re.IGNORECASE
        ):  # "every 15 minutes", "4 and 6 months", "180 days late": how long, not when
            self.note(original, "a length of time: its counts changed")
            return COUNT_OF_TIME.sub(lambda m: self._span_of_time(m.group()), original)
        said = dict(self.notes)
        moved = self._range(original, RANGE_SEPARATORS)
        if "[DATE]" in moved and moved != "[DATE]":  # an end read as no date: the span is none
            self.notes = said
            return self._unread_date(original)
        return moved

    def _range(self, text: str, separators: list) -> str:
        """`text` as a date, else split at the first kind of separator that splits it and
        each end moved on its own (then at the next kind, inside an end)."""
        if (whole := self._one_date(text)) is not None:
            return whole
        for i, separator in enumerate(separators):
            parts = separator.split(text)
            if len(parts) == 1:
                continue
            ends = parts[::2]
            moved = [
                self._range_end(end, ends[j - 1] if j else ends[j + 1], separators[i + 1 :])
                for j, end in enumerate(ends)
            ]
            parts[::2] = moved
            return "".join(parts)
        return self._range_end(text, "", [])

    def _one_date(self, text: str) -> str | None:
        """`text` moved when it is one date with a day, or dates without one."""
        if (new := shift_date(text, self.date_offset, self.month_first)) is not None:
            return new
        return moved_years(text, self.years_back)

    def _range_end(self, part: str, neighbour: str, separators: list) -> str:
        """One end of a range: a date, a bare day that takes its month from the other end
        ('March 3 to 7, 2024'), a range itself, or no date it can read."""
        lead = re.match(r"\s*(?:(?:from|between|since|on|the)\s+)?", part, re.IGNORECASE).group()
        body = part[len(lead) :]
        if (new := self._one_date(body)) is not None:
            return lead + new
        month = re.search(rf"\b({MONTH_WORD})\b", neighbour or "", re.IGNORECASE)
        day = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)?(,? \d{4})?", body)
        if month and day:
            full = f"{month[1]} {day[1]}{day[2] or ''}{day[3] or ''}"
            if (new := shift_date(full, self.date_offset, self.month_first)) is not None:
                moved = re.fullmatch(rf"({MONTH_WORD}) (.*)", new, re.IGNORECASE)
                same_month = moved and moved[1].lower() == month[1].lower()
                return lead + (moved[2] if same_month else new)
        if separators and len(separators[0].split(body)) > 1:
            return lead + self._range(body, separators)
        return lead + self._unread_date(body)

    def _unread_date(self, body: str) -> str:
        """What stands for a DATE span this reads as no date: its words when it has no
        digit (a holiday's name identifies no one), a day of the month moved like the
        document's dates ("the 15th"), an address's or id's digits redrawn one for one
        (an IP address typed as a date), else the type's tag: never random digits in a
        date's place."""
        if not re.search(r"\d", body):
            self.note(body, "no date to move: its words kept")
            return body
        day = re.fullmatch(
            r"(?P<lead>the )?(?P<day>\d{1,2})(?P<o>st|nd|rd|th)?", body, re.IGNORECASE
        )
        if day and 1 <= int(day["day"]) <= 31:  # read in a month of 31 days
            new = dt.date(2001, 1, int(day["day"])) + self.date_offset
            self.note(body, "a day of the month: moved with the document's dates")
            return (day["lead"] or "") + (ordinal(new.day) if day["o"] else str(new.day))
        if re.fullmatch(
            r"\d{1,3}\+|\d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d",
            body,
            re.IGNORECASE,
        ):
            self.note(body, "a count or a time of day, no date: kept")
            return body
        if len(re.findall(r"\d", body)) >= 5 and not re.search(
            rf"\b(?:{MONTH_WORD})\b", body, re.IGNORECASE
        ):
            self.note(body, "not a date (an address, a number or an id): its digits redrawn")
            return self._shape(body)
        self.note(body, "not a date this reads: tagged [DATE]")
        return "[DATE]"

    def note(self, part: str, what: str) -> None:
        """What was done with `part` of the span being replaced, where no fake of its type
        fits (`--explain` writes it beside the span)."""
        said = self.notes.get(self._replacing)
        self.notes[self._replacing] = f"{said}; {what}" if said else what


def _a_sentence(words: str) -> bool:
    """Whether `words` are a sentence of their own: a capital first, a subject and a
    finite verb (the `readable` rule widens a complaint to its sentence)."""
    return words[:1].isupper() and is_clause(words)


def is_clause(words: str) -> bool:
    """Whether `words` hold a subject and a finite verb ("my mum had a fall"), not a noun
    phrase ("a bad flu") or an infinitive."""
    doc = parsed(words)
    subject = any(t.dep_ in ("nsubj", "nsubjpass") for t in doc)
    return subject and any(t.tag_ in ("VBD", "VBZ", "VBP", "MD") for t in doc)


# Penn tags of a predicate's first verb -> the phrase list of its shape.
SHAPE_OF_TAG = {"VBD": "past", "VBN": "past", "VBG": "gerund", "VB": "base", "VBP": "plural"}


def predicate_shape(predicate: str) -> str:
    """The shape of a predicate by its first verb's part of speech (spaCy's tagger on the
    clause, a pronoun subject and adverbs passed over): past, gerund, base, plural present, else
    third-person present."""
    for token in parsed(predicate):
        if token.is_space or token.tag_ in ("PRP", "RB"):
            continue
        return SHAPE_OF_TAG.get(token.tag_, "after_person")
    return "after_person"


@functools.cache
def neutral_phrases() -> dict:
    return read_yaml(DATA_DIR / "deid" / "neutral_phrases.yaml", "neutral phrases")
