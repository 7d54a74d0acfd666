"""Types decided before a surrogate is drawn: the merged spans of every detector checked
against what the words are, so that each replacement is of the type the words are and
lands where the original stood.

Each rule is one module of this package with a `NAME` and `apply(text, spans) -> spans`
(its docstring says what it decides, its tests are tests/synth/deid/rules/). `DECIDING`
and `FINISHING` are the registered rules in the order they run on each document's merged
spans (synth.deid.analyzer.analyze.merged); the finishing ones run again after the
pieces of one clause are joined. Any rule can be left out (`rules=`, by name) to measure
it.

Every span that comes out carries its `history` (synth.deid.spans): each rule that
changed its bounds or type, in order. A `Trace` given to `decided` also collects what
the rules dropped (a greeting's span, a technology), which `deidentify --explain`
writes beside the key.
"""

from dataclasses import dataclass, field, replace

from synth.deid.analyzer.rules import (
    addressed,
    again,
    cv_facts,
    cv_owner,
    dates,
    edges,
    evidence,
    greetings,
    job_lines,
    names,
    parts,
    places,
    readable,
    resume_words,
    shapes,
    subject,
    technologies,
    whole,
)
from synth.deid.spans import Span, resolve

# Registered, in the order they run.
DECIDING = (
    cv_owner,
    cv_facts,
    job_lines,
    again,
    dates,
    greetings,
    parts,
    technologies,
    shapes,
    names,
    places,
    addressed,
    subject,
)
# resume_words finishes: it also drops the parts of a kept name that are a resume's words
# ("Java" found again after "Java EE JAX-WS" was read as a person).
FINISHING = (resume_words, readable, whole, edges)
# Every rule's name, as the docs list them (what `rules=` takes).
RULES = (
    "evidence",
    "greetings",
    "addressed",
    "dates",
    "parts",
    "technologies",
    "resume_words",
    "shapes",
    "names",
    "places",
    "cv_owner",
    "cv_facts",
    "job_lines",
    "again",
    "subject",
    "readable",
    "whole",
    "edges",
)
# Runs on every detector's spans before they are merged (it reads which detector found what).
BEFORE_MERGING = (evidence,)
assert sorted(RULES) == sorted(rule.NAME for rule in BEFORE_MERGING + DECIDING + FINISHING)


@dataclass
class Trace:
    """What the rules dropped in one document: (span as it last stood, the rule)."""

    dropped: list[tuple[Span, str]] = field(default_factory=list)


def unmerged(text: str, spans: list[Span], rules=RULES, trace: Trace | None = None) -> list[Span]:
    """Every detector's spans, overlapping, with the rules that read them so applied."""
    for rule in BEFORE_MERGING:
        if rule.NAME in rules:
            spans = traced(rule.NAME, spans, rule.apply(text, spans), trace)
    return spans


def decided(text: str, spans: list[Span], rules=RULES, trace: Trace | None = None) -> list[Span]:
    """Sorted non-overlapping `spans` of `text` with the rules applied."""
    for rule in DECIDING:
        if rule.NAME in rules:
            spans = traced(rule.NAME, spans, rule.apply(text, spans), trace)
    kept = [s for s in spans if s.end > s.start]
    return finished(text, traced("overlap", spans, resolve(kept), trace), rules, trace)


def finished(text: str, spans: list[Span], rules=RULES, trace: Trace | None = None) -> list[Span]:
    """The finishing rules, again after clause pieces are joined (synth.deid.spans)."""
    for rule in FINISHING:
        if rule.NAME in rules:
            spans = traced(rule.NAME, spans, rule.apply(text, spans), trace)
    return traced("overlap", spans, resolve(spans), trace)


def traced(
    rule: str, before: list[Span], after: list[Span], trace: Trace | None = None
) -> list[Span]:
    """`after` with each span's provenance: a span the rule left as it was keeps its
    score and history; one it moved keeps its detector's score, one it retyped has none
    (the score was the old type's), and either adds the rule to its history; one it made (a detector name of its own) starts a history.
    What the rule dropped goes into `trace`."""
    exact = {_key(s): s for s in before}
    out, used = [], set()
    for span in after:
        parent = exact.get(_key(span)) or _parent(span, before)
        if parent is None:  # the rule's own span
            out.append(replace(span, history=(f"{rule}: found {_bounds(span)} {span.type}",)))
            continue
        used.add(id(parent))
        if (parent.start, parent.end, parent.type) == (span.start, span.end, span.type):
            out.append(
                replace(span, score=parent.score, history=parent.history, **_found_by(parent))
            )
        else:
            # A retyped span has no detector's score for its new type.
            score = parent.score if parent.type == span.type else None
            history = (*parent.history, f"{rule}: {_change(parent, span)}")
            out.append(replace(span, score=score, history=history, **_found_by(parent)))
    if trace is not None:
        kept = {_key(s) for s in after}
        for span in before:
            if id(span) not in used and _key(span) not in kept:
                trace.dropped.append((span, rule))
    return out


def _found_by(parent: Span) -> dict:
    return {"recognizer": parent.recognizer, "decision": parent.decision}


def _key(span: Span) -> tuple:
    return (span.start, span.end, span.type, span.detector)


def _parent(span: Span, before: list[Span]) -> Span | None:
    """The span of `before` this one came from: same detector, the largest overlap."""
    best, most = None, 0
    for s in before:
        if s.detector != span.detector:
            continue
        overlap = min(s.end, span.end) - max(s.start, span.start)
        if overlap > most or (overlap == most and best is not None and s.type == span.type):
            best, most = s, overlap
    return best if most > 0 else None


def _bounds(span: Span) -> str:
    return f"[{span.start},{span.end})"


def _change(parent: Span, span: Span) -> str:
    moved = (parent.start, parent.end) != (span.start, span.end)
    retyped = parent.type != span.type
    what = []
    if moved:
        what.append(f"{_bounds(parent)}→{_bounds(span)}")
    if retyped:
        what.append(f"{parent.type}→{span.type}")
    return " ".join(what)
