"""What de-identification does to a document.

- `tag`: each detected span becomes its type's placeholder ([PERSON], [DATE], …).
- `surrogate`: each detected span becomes a consistent fake of its type
  (synth.deid.anonymizer.surrogates).
- `rewrite`, `abstract`: a language model writes the document again (synth.deid.llm);
  detectors, when given, then tag what they still find in its reply (a scrub pass).
- a method an installed package registers replaces each span with what its `replace`
  returns (synth.deid.anonymizer.methods).

Each returns the shareable text, the spans of what was written in it (type, offsets in
the new text, detector), and the key: original → replacement. The key re-identifies the
document; callers keep it out of the shareable output. The language-model methods have
no key: the model does not say what it replaced.
"""

from dataclasses import dataclass, replace

from synth.deid.anonymizer.context import OperatorContext
from synth.deid.anonymizer.methods import MethodPlan, method_plan, replacer
from synth.deid.anonymizer.private_strings import SEEN, document_originals
from synth.deid.anonymizer.surrogates import Surrogates
from synth.deid.spans import Span
from synth.deid.visible import Shown, visible


@dataclass
class Replaced:
    text: str | None  # None when the document failed (`error` says why)
    spans: list[Span]  # offsets into `text`
    key: list[dict]  # {type, original, replacement}: never in the shareable output
    error: str | None = None
    decisions: list[dict] | None = None  # with --explain (synth.deid.pipeline): beside the key
    # per span, in `key`'s order: what a surrogate did where no fake of its type fits
    # ("not a date this reads: tagged [DATE]"), else None
    notes: list[str | None] | None = None


def replace_spans(
    text: str,
    spans: list[Span],
    method,
    surrogates: Surrogates | None,
    shown: Shown | None = None,
    context: OperatorContext | None = None,
) -> Replaced:
    """`spans` (non-overlapping, synth.deid.spans.resolve) replaced in one pass by
    `method`: a method's name, a MethodPlan, or {name: replacer} for each name of the
    plan (synth.deid.anonymizer.methods). What is written holds no invisible character
    (synth.deid.visible), the replacements none either; `shown`: `text` is a document in
    display order, whose key keeps the original's characters as written; `context`: what
    each operator is told of the document (its `span` set per span)."""
    plan = method if isinstance(method, MethodPlan) else None
    if callable(method):  # (type, original) -> text
        operators = {"given": lambda kind, original, context=None: method(kind, original)}
        plan = MethodPlan("given")
    elif isinstance(method, dict):
        operators, plan = method, method.get("_plan")
    else:
        plan = plan or method_plan(method)
        operators = {name: replacer(name, surrogates) for name in plan.names()}
    context = context or OperatorContext("", 0, "US", text, tuple(spans), {})
    out, new_spans, key, cursor, written = [], [], [], 0, 0
    for span in sorted(spans):
        original = text[span.start : span.end]
        operator = operators[plan.method_of(span.type)]
        replacement = visible(operator(span.type, original, replace(context, span=span)))
        before = visible(text[cursor : span.start])
        start = written + len(before)  # where the replacement starts in the new text
        out += [before, replacement]
        new_spans.append(Span(start, start + len(replacement), span.type, span.detector))
        as_written = shown.original(span.start, span.end) if shown is not None else original
        key.append(
            {
                "type": span.type,
                "original": as_written,
                "replacement": replacement,
                "start": start,
                "end": start + len(replacement),
            }
        )
        cursor, written = span.end, start + len(replacement)
    out.append(visible(text[cursor:]))
    return Replaced("".join(out), new_spans, key)


def operators_for(plan: MethodPlan) -> dict:
    """{method name: replacer} for each name of `plan` but surrogate (which needs each
    document's Surrogates): an installed method is made once per batch."""
    made = {name: replacer(name) for name in plan.names() if name != "surrogate"}
    return {**made, "_plan": plan}


# Surrogate draws tried per document to keep its kind (the first is kept if none does).
KIND_DRAWS = 4


def anonymized(
    ids,
    texts,
    found,
    method: str,
    seed: int,
    country: str = "US",
    kinds=None,
    shown=None,
    options: dict | None = None,
) -> list[Replaced]:
    """Each document's decided spans replaced by the method of their type. With no
    surrogate in the plan, one pass; with one, `surrogated`'s draws."""
    plan = method_plan(method)
    operators = operators_for(plan)
    if set(plan.names()) - {"tag", "surrogate"}:  # an installed method: the batch is seen
        for text, spans in zip(texts, found):
            SEEN.remember(document_originals(text, spans))
    if "surrogate" in plan.names():
        return surrogated(ids, texts, found, seed, country, kinds, shown, operators, options)
    out = []
    for i, (doc_id, text, spans) in enumerate(zip(ids, texts, found)):
        context = OperatorContext(doc_id, seed, country, text, tuple(spans), options or {})
        out.append(replace_spans(text, spans, operators, None, shown and shown[i], context))
    return out


def surrogated(
    ids,
    texts,
    found,
    seed: int,
    country: str = "US",
    kinds=None,
    shown=None,
    operators=None,
    options: dict | None = None,
) -> list[Replaced]:
    """Each document with its spans replaced (surrogates for the types whose method is
    surrogate, `operators` for the others), drawn so that it keeps its kind: where the
    detector's kind classifier (synth.deid.analyzer.kinds) reads the shareable text as
    another kind than the original (a neutral phrase or a life event that reads like
    another request), up to KIND_DRAWS draws are tried, each seeded by the run's seed,
    the document's id and the draw, and the first that keeps the kind is kept (else the
    first draw). Deterministic: the same input gives the same output. `shown`: the texts'
    display-order maps (the key keeps what was written)."""
    operators = operators or operators_for(MethodPlan("surrogate"))
    out = []
    for i, (doc_id, text, spans) in enumerate(zip(ids, texts, found)):
        draws = KIND_DRAWS if kinds is not None and spans else 1
        context = OperatorContext(doc_id, seed, country, text, tuple(spans), options or {})
        first = None
        for draw in range(draws):
            name = doc_id if draw == 0 else f"{doc_id}#{draw}"
            surrogates = Surrogates(seed, name, country)
            with_draw = {**operators, "surrogate": replacer("surrogate", surrogates)}
            done = replace_spans(text, spans, with_draw, None, shown and shown[i], context)
            done.notes = _notes(done, text, spans, surrogates)
            first = first or done
            if draws == 1 or _same_kind(kinds, text, done.text):
                first = done
                break
        out.append(first)
    return out


def _notes(done: Replaced, text: str, spans: list[Span], surrogates: Surrogates) -> list:
    """Per span replaced, the surrogate's note on it (Surrogates.notes), else None."""
    return [
        surrogates.notes.get((s.type, " ".join(text[s.start : s.end].lower().split())))
        for s in sorted(spans)
    ]


def _same_kind(kinds, original: str, shared: str) -> bool:
    best = kinds.probabilities([original, shared]).argmax(axis=1)
    return best[0] == best[1]
