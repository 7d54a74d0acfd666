"""De-identification of a batch of documents, the analyzer and the anonymizer composed:
the documents read in display order (synth.deid.visible), their spans found and decided
(synth.deid.analyzer.analyze), then replaced by each type's method
(synth.deid.anonymizer.operators); or, for the language-model methods, rewritten by the
model and what detectors still find in the reply tagged (a scrub pass).

With `explain`, each result carries its decisions (`Replaced.decisions`): for every span
replaced, the detector, its score and the rules that changed it, and every span a rule
dropped. They name the original words, so they go beside the key, never into the
shareable output (synth.deid.writing)."""

from synth.deid.analyzer.analyze import detect
from synth.deid.analyzer.rules import Trace
from synth.deid.anonymizer.operators import Replaced, anonymized, replace_spans
from synth.deid.llm import clean_reply, reply_error
from synth.deid.spans import Span
from synth.deid.visible import Shown, display_order, visible


def deidentify(
    ids: list[str],
    texts: list[str],
    detectors: list,
    method: str,
    seed: int,
    country: str = "US",
    writer=None,
    options: dict | None = None,
    explain: bool = False,
) -> list[Replaced]:
    """Each document de-identified by `method` (one name, or one per type:
    synth.deid.anonymizer.methods); `writer` (a synth.deid.llm.LlmTask) does the
    language-model methods; `options`: --method-option's values, given to every
    operator."""
    shown = [display_order(text) for text in texts]  # read as a person reads them
    texts = [s.text for s in shown]
    if writer is not None:
        return rewritten(texts, detectors, writer)
    traces = [Trace() for _ in texts] if explain else None
    found = detect(texts, detectors, traces)
    kinds = kind_classifier(detectors)
    done = anonymized(ids, texts, found, method, seed, country, kinds, shown, options)
    if explain:
        for result, spans, seen, trace in zip(done, found, shown, traces):
            result.decisions = decisions(seen, spans, trace, result.notes)
    return done


def decisions(
    shown: Shown, spans: list[Span], trace: Trace, notes: list | None = None
) -> list[dict]:
    """Per span replaced, and per span a rule dropped, in text order: its words (as a
    reader sees them), its place in the document as written (a right-to-left override's
    run is read turned round, its offsets are the input's: issue 94 EXP1), type,
    detector, score and the rules that changed it, then, where a surrogate of its type
    did not fit (a date it cannot read), what was written instead (`surrogate: …`)."""
    rows = [_decision(shown, s, "replaced", None) for s in spans]
    for row, note in zip(sorted(rows, key=lambda r: (r["shown"], r["start"])), notes or []):
        if note:
            row["rules"].append(f"surrogate: {note}")
    seen = {(s.start, s.end, s.type) for s in spans}
    for span, rule in trace.dropped:
        if (span.start, span.end, span.type) not in seen and rule != "overlap":
            rows.append(_decision(shown, span, "kept as written", rule))
    rows.sort(key=lambda r: (r["start"], r["end"]))
    for row in rows:
        del row["shown"]
    return rows


def _decision(shown: Shown, span: Span, outcome: str, dropped_by: str | None) -> dict:
    start, end = shown.to_original(span.start, span.end)
    return {
        "shown": (span.start, span.end),  # the notes' order: the spans' as read
        "start": start,
        "end": end,
        "words": shown.text[span.start : span.end],
        "type": span.type,
        "detector": span.detector,
        "score": span.score,
        "rules": list(span.history),
        "outcome": outcome,
        "dropped_by": dropped_by,
    }


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
