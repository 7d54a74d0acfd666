"""A detected piece of personal data, and how several detectors' spans become one list.

A span says where it came from: the detector that found it and the score it gave
(Presidio's recognizer score; None where a detector gives none, as the BIO model's tags
and a rule's own spans, or where a rule retyped it: the score was the old type's),
Presidio's recognizer and decision where Presidio found it, and `history`, every decision rule that changed its bounds or
type, in order (synth.deid.analyzer.rules). Neither takes part in comparing or sorting
spans, so what is decided does not depend on them.
"""

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, order=True)
class Span:
    start: int
    end: int
    type: str  # one of synth.deid.types' names
    detector: str  # which detector found it (the first, when several did)
    score: float | None = field(default=None, compare=False)
    history: tuple[str, ...] = field(default=(), compare=False)
    # Presidio's recognizer and its decision process (`return_decision_process`), where
    # Presidio found it: what `deidentify --explain` names below the detector.
    recognizer: str | None = field(default=None, compare=False)
    decision: str | None = field(default=None, compare=False)

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end


def resolve(spans: list[Span]) -> list[Span]:
    """Non-overlapping spans in text order: where spans overlap the longest wins (then the
    earliest), so "Paul Martin" beats "Paul" and a date inside a longer date is one date.
    Replacing the union instead would merge neighbouring values of different types."""
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start - s.end, s.start)):
        if not any(span.overlaps(k) for k in kept):
            kept.append(span)
    return sorted(kept)


def spans_from_word_tags(
    words: list[tuple[int, int]], tags: list[str], type_of: dict[str, str], detector: str
) -> list[Span]:
    """BIO word tags (B-salary, I-salary, O) -> character spans of personal-data types;
    labels `type_of` does not map are not personal data."""
    spans, current = [], None
    for (start, end), tag in zip(words, tags):
        label = tag[2:]
        if tag.startswith("I-") and current and current[2] == label:
            current[1] = end
            continue
        if current:
            spans.append(current)
        current = [start, end, label] if tag != "O" else None
    if current:
        spans.append(current)
    return [Span(s, e, type_of[label], detector) for s, e, label in spans if label in type_of]


# Types replaced by a neutral phrase of their kind (synth.deid.anonymizer.surrogates): two pieces of
# one clause must become one phrase, not the phrase twice in a row.
PHRASE_TYPES = ("CONDUCT", "CIRCUMSTANCE")


def joined_clauses(text: str, spans: list[Span]) -> list[Span]:
    """Sorted non-overlapping `spans` with neighbouring pieces of one phrase type joined
    where only spaces, a line break or a comma lie between them (a clause the writer broke
    across lines, or that a detector found in two pieces)."""
    out: list[Span] = []
    for span in spans:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.type == span.type
            and span.type in PHRASE_TYPES
            and text[prev.end : span.start].strip(" \t\r\n,") == ""
        ):
            out[-1] = replace(
                prev, end=span.end, history=(*prev.history, f"joined: {prev.end}→{span.end}")
            )
        else:
            out.append(span)
    return out


def checked_spans(detector, texts: list[str], found) -> list[list[Span]]:
    """A detector's answer, checked where it enters: one list of spans per text, each
    inside its text (0 <= start <= end <= len), of a known personal type. Too few lists
    left documents silently untouched (a privacy failure), a negative start duplicated a
    document's content; each is one line naming the detector instead."""
    from synth import ConfigError
    from synth.deid.types import personal_types

    name = getattr(detector, "name", type(detector).__name__)
    fix = "fix the detector, or leave it out of --detectors (docs/extending.md)"
    if not isinstance(found, (list, tuple)) or len(found) != len(texts):
        size = len(found) if isinstance(found, (list, tuple)) else type(found).__name__
        raise ConfigError(
            f"detector {name} returned {size} span lists for {len(texts)} documents; it must "
            f"return one list per document: {fix}"
        )
    known = set(getattr(detector, "TYPES", None) or personal_types().names)  # declared
    for text, spans in zip(texts, found):
        if not isinstance(spans, (list, tuple)):
            raise ConfigError(
                f"detector {name} returned {type(spans).__name__} for a document, not a "
                f"list of spans: {fix}"
            )
        for span in spans:
            if not isinstance(span, Span):
                raise ConfigError(f"detector {name} returned {span!r}, not a Span: {fix}")
            if not (0 <= span.start <= span.end <= len(text)):
                raise ConfigError(
                    f"detector {name} returned a span [{span.start}, {span.end}) outside its "
                    f"document of {len(text)} characters: {fix}"
                )
            if span.type not in known:
                raise ConfigError(
                    f"detector {name} returned type {span.type!r}, not one of the types it "
                    f"declares ({', '.join(sorted(known))}): {fix}"
                )
    return [list(spans) for spans in found]
