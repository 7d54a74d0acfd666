"""Locate each sampled variable's surface form in the final ticket text.

Values are inserted by the template, as sampled or in the surface form the ticket's
writer uses (synth/kinds/tickets/forms.py), so most are found exactly; the model may
also restate them in other words ('three days', '7 percent', 'March 3rd'), which the
heuristics below find. Every occurrence is marked (an unmarked mention would teach an NER
model that it is not an entity); overlaps are resolved longest first, then earliest.
"""

import datetime as dt
import functools
import re

from synth.calendar import NUMBER_WORDS, ordinal

STOP_WORDS = {
    "a",
    "an",
    "the",
    "of",
    "in",
    "on",
    "at",
    "to",
    "for",
    "from",
    "by",
    "with",
    "my",
    "our",
    "your",
    "his",
    "her",
    "their",
    "and",
    "or",
    "is",
    "are",
    "was",
    "be",
    "been",
    "that",
    "this",
    "these",
    "those",
    "it",
    "its",
    "as",
    "about",
    # auxiliaries and negation: "could not" of a clause is no value of its own (an aside's
    # "could not find the answer" is not the shift-change reason)
    "could",
    "would",
    "can",
    "will",
    "not",
    "no",
    "has",
    "have",
    "had",
    "were",
    "do",
    "does",
    "did",
    # pronouns: "I" is capitalised but no name (a clause value starts with it)
    "i",
    "me",
    "we",
    "us",
    "you",
    "he",
    "she",
    "him",
    "they",
    "them",
}
DATE_FORMATS = ("%B %d, %Y", "%d %B %Y")
CALENDAR_WORDS = {  # month and weekday names, whole and abbreviated
    name.lower()
    for day in (dt.date(2000, m, 1) for m in range(1, 13))
    for name in (day.strftime("%B"), day.strftime("%b"))
} | {
    name.lower()
    for day in (dt.date(2024, 1, d) for d in range(1, 8))
    for name in (day.strftime("%A"), day.strftime("%a"))
}


def _date_variants(value: str) -> list[str]:
    for fmt in DATE_FORMATS:
        try:
            d = dt.datetime.strptime(value, fmt).date()
            break
        except ValueError:
            continue
    else:
        return []
    month, short = d.strftime("%B"), d.strftime("%b")
    day, o = d.day, ordinal(d.day)
    return [
        f"{month} {day}, {d.year}",
        f"{day} {month} {d.year}",
        f"{month} {o}, {d.year}",
        f"{o} of {month} {d.year}",
        f"{o} of {month}",
        f"{month} {o}",
        f"{month} {day}",
        f"{day} {month}",
        f"{short} {day}",
        f"{day} {short}",
        d.isoformat(),
        f"{d.month}/{day}/{d.year}",
        f"{day}/{d.month}/{d.year}",
        f"{d.month:02d}/{day:02d}/{d.year}",
        f"{day:02d}/{d.month:02d}/{d.year}",
        f"{day}.{d.month}.{d.year}",
        f"{day:02d}.{d.month:02d}.{d.year}",
    ]


def _number_variants(value: str) -> list[str]:
    out = []
    m = re.fullmatch(r"(\d+(?:\.\d+)?)%", value)
    if m:
        n = m.group(1)
        out += [f"{n} %", f"{n} percent", f"{n} per cent", f"{n}-percent"]
        if n.isdigit() and int(n) < len(NUMBER_WORDS):
            out += [f"{NUMBER_WORDS[int(n)]} percent", f"{NUMBER_WORDS[int(n)]} per cent"]
    m = re.fullmatch(r"(\d+) (day|days|week|weeks|month|months)", value)
    if m:
        n, unit = int(m.group(1)), m.group(2)
        if n < len(NUMBER_WORDS):
            out += [f"{NUMBER_WORDS[n]} {unit}", f"{NUMBER_WORDS[n]}-{unit.rstrip('s')}"]
        out += [f"{n}-{unit.rstrip('s')}", f"{n} working {unit}"]
    m = re.fullmatch(r"([$€£])([\d,]+)", value)
    if m:
        sym, digits = m.group(1), m.group(2)
        plain = digits.replace(",", "")
        out += [
            f"{sym}{plain}",
            f"{sym} {digits}",
            f"{digits} {sym}",
            f"{digits}{sym}",
            f"{sym}{digits.replace(',', '.')}",
            f"{digits.replace(',', '.')} {sym}",
            digits,
            f"{digits} dollars",
            f"{digits} euros",
            f"{digits} pounds",
        ]
    return out


def _sub_phrases(value: str) -> list[str]:
    """Contiguous runs of a multi-word value that start and end on content words."""
    words = value.split()
    if len(words) < 2:
        return []
    runs = []
    for i in range(len(words)):
        for j in range(len(words), i, -1):
            run = words[i:j]
            if run == words or run[0].lower() in STOP_WORDS or run[-1].lower() in STOP_WORDS:
                continue
            content = [w for w in run if w.lower() not in STOP_WORDS]
            # One content word only when it is a name ('Frankfurt' of 'Frankfurt am Main'),
            # not a month or a weekday ('May' of '12 May 2027' in another date).
            if len(content) >= 2 or (
                len(content) == 1
                and content[0][:1].isupper()
                and content[0].lower() not in CALENDAR_WORDS
            ):
                runs.append(" ".join(run))
    return sorted(set(runs), key=len, reverse=True)


def variants(value: str) -> list[str]:
    """Other surface forms of a value, most specific first."""
    seen, out = {value}, []
    for v in _date_variants(value) + _number_variants(value) + _sub_phrases(value):
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def _occurrences(text: str, needle: str, ignore_case: bool):
    flags = re.IGNORECASE if ignore_case else 0
    pattern = r"(?<![\w$€£])" + re.escape(needle) + r"(?!\w)"
    return [(m.start(), m.end()) for m in re.finditer(pattern, text, flags)]


def locate(text: str, values: dict[str, str], surface: dict[str, str] | None = None) -> list[dict]:
    """Non-overlapping entity spans for `values` ({label: sampled value}) in `text`.

    `surface` ({label: the form the value was written in}, synth/kinds/tickets/forms.py) is looked for
    first: a span of it has match 'rendered' and its text is that form."""
    candidates = []
    for order, (label, value) in enumerate(values.items()):
        value = str(value).strip()
        if not value:
            continue
        written = (surface or {}).get(label, value)
        found = (
            []
            if written == value
            else [(s, e, "rendered") for s, e in _occurrences(text, written, False)]
        )
        found += [(s, e, "exact") for s, e in _occurrences(text, value, False)]
        found += [
            (s, e, "heuristic")
            for s, e in _occurrences(text, value, True)
            if (s, e, "exact") not in found
        ]
        for alt in variants(value):
            found += [(s, e, "heuristic") for s, e in _occurrences(text, alt, True)]
        candidates += [(s, e, label, value, m, order) for s, e, m in found]
    # Longest first; on a tie a planted form (exact or rendered) beats a heuristic one,
    # then declaration order.
    candidates.sort(key=lambda c: (-(c[1] - c[0]), c[4] == "heuristic", c[5], c[0]))
    taken, spans = [], []
    for s, e, label, value, match, _ in candidates:
        if any(s < te and ts < e for ts, te in taken):
            continue
        taken.append((s, e))
        spans.append({"start": s, "end": e, "label": label, "value": value, "match": match})
    return sorted(spans, key=lambda x: x["start"])


@functools.cache
def attached_words() -> dict[str, list[str]]:
    from synth import DATA_DIR
    from synth.io.files import read_yaml

    return read_yaml(DATA_DIR / "forms" / "attached.yaml", "attached words")


def attach_following(text: str, entities: list[dict], attached: dict[str, list[str]]) -> list[dict]:
    """Spans grown over the words that belong to them when the text goes on with them
    (`attached`: label -> words, e.g. number_of_days -> [' off']), unless that would
    reach into the next span or into a longer word ('offer')."""
    starts = sorted(e["start"] for e in entities)
    grown = []
    for e in entities:
        for tail in attached.get(e["label"], ()):
            end = e["end"] + len(tail)
            next_start = min((s for s in starts if s >= e["end"]), default=len(text))
            if (
                text[e["end"] : end].lower() == tail.lower()
                and end <= next_start
                and not (end < len(text) and text[end].isalnum())
            ):
                e = {**e, "end": end}
                if e.get("match") == "exact":  # the span now holds a written form of it
                    e["match"] = "rendered"
                break
        grown.append(e)
    return grown


@functools.cache
def connectives() -> dict:
    """The connectives a clause span takes in (synth/data/forms/connectives.yaml)."""
    from synth import DATA_DIR
    from synth.io.files import read_yaml

    doc = read_yaml(DATA_DIR / "forms" / "connectives.yaml", "connectives")
    return {
        "labels": set(doc["labels"]),
        "phrase": sorted(doc["phrase"], key=len, reverse=True),
        "infinitive": sorted(doc["infinitive"], key=len, reverse=True),
        "infinitive_labels": set(doc["infinitive_labels"]),
        "not_verbs": set(doc["not_verbs"].split()),
    }


def connective_before(text: str, start: int, label: str, verb_next: bool = False) -> int:
    """Where a clause of `label` starting at `start` starts with the connective written
    right before it ("due to [my back]" → "[due to my back]"); `start` when there is none.
    The infinitive `to` counts before a verb only (`verb_next`), for the labels listing it."""
    c = connectives()
    if label not in c["labels"]:
        return start
    before = text[max(0, start - 25) : start]
    stripped = before.rstrip(" ")
    if not before or len(stripped) == len(before) or "\n" in before[len(stripped) :]:
        return start
    lower = stripped.lower()
    listed = c["phrase"] + (
        c["infinitive"] if verb_next and label in c["infinitive_labels"] else []
    )
    for connective in sorted(listed, key=len, reverse=True):
        at = len(lower) - len(connective)
        if lower.endswith(connective) and (at == 0 or not lower[at - 1].isalnum()):
            return start - (len(before) - at)
    return start


def attach_connectives(text: str, entities: list[dict]) -> list[dict]:
    """Clause spans grown over the connective before them (docs/annotation.md, "Clauses"),
    unless it belongs to the span before. A planted clause that starts with a verb form
    ("drive my mother …", "pick up …") takes an infinitive `to` too."""
    ends = sorted(e["end"] for e in entities)
    grown = []
    for e in entities:
        first = text[e["start"] : e["end"]].split(" ", 1)[0].lower()
        start = connective_before(text, e["start"], e["label"], _verb_form(first))
        if start < e["start"] and not any(start < end <= e["start"] for end in ends):
            e = {**e, "start": start}
            if e.get("match") == "exact":
                e["match"] = "rendered"
        grown.append(e)
    return grown


def _verb_form(word: str) -> bool:
    """A bare verb a planted reason opens with: not a determiner, pronoun or noun
    marker (the planted values are lay phrases: "drive my mother", "my son's school")."""
    return word.isalpha() and word not in connectives()["not_verbs"]
