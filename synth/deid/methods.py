"""What de-identification does to a document.

- `tag`: each detected span becomes its type's placeholder ([PERSON], [DATE], …).
- `surrogate`: each detected span becomes a consistent fake of its type
  (synth.deid.surrogates).
- `rewrite`, `abstract`: a language model writes the document again (synth.deid.llm);
  detectors, when given, then tag what they still find in its reply (a scrub pass).
- a method an installed package registers replaces each span with what its `replace`
  returns (synth.deid.method_registry).

Each returns the shareable text, the spans of what was written in it (type, offsets in
the new text, detector), and the key: original → replacement. The key re-identifies the
document; callers keep it out of the shareable output. The language-model methods have
no key: the model does not say what it replaced.
"""

import functools
from dataclasses import dataclass

from synth.deid.decide import RULES as DECISION_RULES
from synth.deid.decide import decided, finished
from synth.deid.llm import clean_reply, reply_error
from synth.deid.method_registry import replacer
from synth.deid.normalise import normalise
from synth.deid.spans import Span, checked_spans, joined_clauses, resolve
from synth.deid.surrogates import Surrogates
from synth.deid.visible import Shown, display_order, visible


@dataclass
class Replaced:
    text: str | None  # None when the document failed (`error` says why)
    spans: list[Span]  # offsets into `text`
    key: list[dict]  # {type, original, replacement}: never in the shareable output
    error: str | None = None


def replace_spans(
    text: str,
    spans: list[Span],
    method,
    surrogates: Surrogates | None,
    shown: Shown | None = None,
) -> Replaced:
    """`spans` (non-overlapping, synth.deid.spans.resolve) replaced in one pass by
    `method` (a span method's name, or its replacer: synth.deid.method_registry). What
    is written holds no invisible character (synth.deid.visible), the replacements none
    either; `shown`: `text` is a document in display order, whose key keeps the
    original's characters as written."""
    replace = method if callable(method) else replacer(method, surrogates)
    out, new_spans, key, cursor, written = [], [], [], 0, 0
    for span in sorted(spans):
        original = text[span.start : span.end]
        replacement = visible(replace(span.type, original))
        before = visible(text[cursor : span.start])
        start = written + len(before)  # where the replacement starts in the new text
        out += [before, replacement]
        new_spans.append(Span(start, start + len(replacement), span.type, span.detector))
        as_written = shown.original(span.start, span.end) if shown is not None else original
        key.append({"type": span.type, "original": as_written, "replacement": replacement})
        cursor, written = span.end, start + len(replacement)
    out.append(visible(text[cursor:]))
    return Replaced("".join(out), new_spans, key)


def detect(texts: list[str], detectors: list) -> list[list[Span]]:
    """Every detector over the batch, their spans merged (`merged`). Detectors read the
    text normalised (synth.deid.normalise: zero-width and bidi controls out, NFKC); the
    spans come back in the offsets of the text as written."""
    read = [normalise(text).text for text in texts]
    found = [[] for _ in texts]
    for detector in detectors:
        for spans, more in zip(found, checked_spans(detector, read, detector.detect(read))):
            spans += more
    return merged(texts, found)


def merged(texts: list[str], found: list[list[Span]], rules=DECISION_RULES) -> list[list[Span]]:
    """Per text as written, the spans detectors found in its normalised form: merged
    (synth.deid.spans.resolve), their types decided (synth.deid.decide; `rules` leaves
    some out to measure them), each part of a full name found again where the document
    writes it alone, mapped back to the text's offsets, and pieces of one clause joined."""
    out = []
    for text, spans in zip(texts, found):
        plain = normalise(text)
        spans = decided(plain.text, resolve(spans), rules)
        spans = resolve(spans + name_parts_alone(plain.text, spans))
        back = [Span(*plain.to_original(s.start, s.end), s.type, s.detector) for s in spans]
        out.append(finished(text, joined_clauses(text, resolve(back)), rules))
    return out


def name_parts_alone(text: str, spans: list[Span]) -> list[Span]:
    """`Ana` where the document also names `Ana Souza` (or `Ana`) as a person: a first
    name alone identifies her to anyone who read the full one, and detectors miss it
    without context. Capitalised parts of two or more letters, as whole words, case as
    written."""
    import re

    people = [s for s in spans if s.type == "PERSON"]
    for s in list(people):  # "Ana Souza" found as "Souza": a known first name just before
        before = re.search(r"(?<![\w-])([\w'’-]+) $", text[max(0, s.start - 40) : s.start])
        if before and before[1] in first_names():
            people.append(Span(s.start - len(before[0]), s.end, "PERSON", s.detector))
    parts = {
        word
        for s in people
        for word in re.findall(r"[\w'’-]+", text[s.start : s.end])
        if len(word) > 1 and word[0].isupper()
    }
    return people + [
        Span(m.start(), m.end(), "PERSON", "name parts")
        for part in parts
        for m in re.finditer(rf"(?<![\w-]){re.escape(part)}(?![\w-])", text)
    ]


# The personas' locales, whose Faker name lists say what a first or last name is.
NAME_LOCALES = ("en_US", "en_GB", "de_DE", "it_IT", "es_ES", "fr_FR", "pt_PT", "nl_NL")


@functools.cache
def faker_names(field: str, locales: tuple[str, ...] = NAME_LOCALES) -> frozenset[str]:
    """Faker's own list `field` (`first_names`, `last_names`) of each locale (public data)."""
    import importlib

    names = set()
    for locale in locales:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        names |= set(getattr(provider, field, ()))
    return frozenset(names)


def first_names() -> frozenset[str]:
    """First names of the personas' locales."""
    return faker_names("first_names")


# Surrogate draws tried per document to keep its kind (the first is kept if none does).
KIND_DRAWS = 4


def deidentify(
    ids: list[str],
    texts: list[str],
    detectors: list,
    method: str,
    seed: int,
    country: str = "US",
    writer=None,
) -> list[Replaced]:
    """Each document de-identified by `method`; `writer` (a synth.deid.llm.LlmTask) does
    the language-model methods."""
    shown = [display_order(text) for text in texts]  # read as a person reads them
    texts = [s.text for s in shown]
    if writer is not None:
        return rewritten(texts, detectors, writer)
    found = detect(texts, detectors)
    if method != "surrogate":
        replace = replacer(method)  # one per batch: an installed method is made once
        return [replace_spans(s.text, spans, replace, None, s) for s, spans in zip(shown, found)]
    return surrogated(ids, texts, found, seed, country, kind_classifier(detectors), shown)


def surrogated(
    ids, texts, found, seed: int, country: str = "US", kinds=None, shown=None
) -> list[Replaced]:
    """Each document with its spans replaced by surrogates, drawn so that it keeps its
    kind: where the detector's kind classifier (synth.deid.kinds) reads the shareable
    text as another kind than the original (a neutral phrase or a life event that reads
    like another request), up to KIND_DRAWS draws are tried, each seeded by the run's seed,
    the document's id and the draw, and the first that keeps the kind is kept (else the
    first draw). Deterministic: the same input gives the same output. `shown`: the texts'
    display-order maps (the key keeps what was written)."""
    out = []
    for i, (doc_id, text, spans) in enumerate(zip(ids, texts, found)):
        draws = KIND_DRAWS if kinds is not None and spans else 1
        first = None
        for draw in range(draws):
            name = doc_id if draw == 0 else f"{doc_id}#{draw}"
            surrogates = Surrogates(seed, name, country)
            done = replace_spans(text, spans, "surrogate", surrogates, shown and shown[i])
            first = first or done
            if draws == 1 or _same_kind(kinds, text, done.text):
                first = done
                break
        out.append(first)
    return out


def _same_kind(kinds, original: str, shared: str) -> bool:
    best = kinds.probabilities([original, shared]).argmax(axis=1)
    return best[0] == best[1]


def kind_classifier(detectors: list):
    """The kind classifier of the first detector that has one (the built detector's)."""
    for detector in detectors:
        kinds = getattr(getattr(detector, "detector", detector), "kinds", None)
        if kinds is not None:
            return kinds
    return None


def rewritten(texts: list[str], detectors: list, writer) -> list[Replaced]:
    """The model's reply per document; a failed or empty one is an error, never the
    original. Detectors, when given, tag what they find in the replies."""
    replies = writer.run(texts)
    errors = [reply_error(r) for r in replies]
    outputs = [visible(clean_reply(r)) if e is None else "" for r, e in zip(replies, errors)]
    spans = detect(outputs, detectors) if detectors else [[] for _ in outputs]
    done = []
    for output, found, error in zip(outputs, spans, errors):
        if error:
            done.append(Replaced(None, [], [], error=error))
        else:
            scrubbed = replace_spans(output, found, "tag", None)
            done.append(Replaced(scrubbed.text, scrubbed.spans, []))
    return done
