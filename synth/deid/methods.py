"""What de-identification does with the spans found in a document.

- `tag`: each span becomes its type's placeholder ([PERSON], [DATE], …).
- `surrogate`: each span becomes a consistent fake of its type (synth.deid.surrogates).

Both return the shareable text, the spans of what was written in it (type, offsets in the
new text, detector), and the key: original → replacement. The key re-identifies the
document; callers keep it out of the shareable output.
"""

from dataclasses import dataclass

from synth.deid.spans import Span, resolve
from synth.deid.surrogates import Surrogates
from synth.deid.types import personal_types


@dataclass
class Replaced:
    text: str | None  # None when the document failed (`error` says why)
    spans: list[Span]  # offsets into `text`
    key: list[dict]  # {type, original, replacement}: never in the shareable output
    error: str | None = None


def replace_spans(
    text: str, spans: list[Span], method: str, surrogates: Surrogates | None
) -> Replaced:
    """`spans` (non-overlapping, synth.deid.spans.resolve) replaced in one pass."""
    types = personal_types()
    out, new_spans, key, cursor, written = [], [], [], 0, 0
    for span in sorted(spans):
        original = text[span.start : span.end]
        if method == "tag":
            replacement = types.tag(span.type)
        else:
            replacement = surrogates.replace(span.type, original)
        before = text[cursor : span.start]
        start = written + len(before)  # where the replacement starts in the new text
        out += [before, replacement]
        new_spans.append(Span(start, start + len(replacement), span.type, span.detector))
        key.append({"type": span.type, "original": original, "replacement": replacement})
        cursor, written = span.end, start + len(replacement)
    out.append(text[cursor:])
    return Replaced("".join(out), new_spans, key)


def deidentify(
    ids: list[str],
    texts: list[str],
    detectors: list,
    method: str,
    seed: int,
    country: str = "US",
) -> list[Replaced]:
    """Every detector over the batch, their spans merged (synth.deid.spans.resolve), then
    each document's spans replaced by `method`."""
    found = [[] for _ in texts]
    for detector in detectors:
        for spans, more in zip(found, detector.detect(texts)):
            spans += more
    return [
        replace_spans(
            text,
            resolve(spans),
            method,
            Surrogates(seed, doc_id, country) if method == "surrogate" else None,
        )
        for doc_id, text, spans in zip(ids, texts, found)
    ]
