"""De-identification of a batch of documents as steps (synth.steps): the documents read
in display order (synth.deid.visible), their spans found and decided
(synth.deid.analyzer.analyze), then replaced by each type's method
(synth.deid.anonymizer.operators); or, for the language-model methods, rewritten by the
model and what detectors still find in the reply tagged (a scrub pass).

With the explain step, each result carries its decisions (`Replaced.decisions`): for
every span replaced, who found it, its score, the rules that changed it and what it
became, and every span a rule dropped. They name the original words, so they go beside
the key, never into the shareable output (synth.deid.writing). The write step is
synth.deid.writing's; a user's steps go between these (synth.steps.placed)."""

from synth.deid.analyzer.analyze import Analyze, DisplayOrder, detect
from synth.deid.analyzer.rules import Trace
from synth.deid.anonymizer.methods import method_plan
from synth.deid.anonymizer.operators import Replaced, anonymized, replace_spans
from synth.deid.llm import clean_reply, reply_error
from synth.deid.spans import Span
from synth.deid.visible import Shown, visible
from synth.steps import Batch, Step, run_steps

# What the read step (the Ray edge's block, synth.deid.writing) gives the first step.
READ = ("id", "original_id", "text", "label", "shard")


class Anonymize(Step):
    """Each document's spans replaced by the method of their type."""

    NAME, NEEDS, GIVES = "anonymize", ("id", "shown", "found"), ("result",)

    def __init__(self, method: str, seed: int, country: str, kinds, options: dict | None):
        self.method, self.seed, self.country = method, seed, country
        self.kinds, self.options = kinds, options

    def run(self, batch: Batch) -> Batch:
        shown = batch["shown"]
        texts = [s.text for s in shown]
        batch["result"] = anonymized(
            batch["id"], texts, batch["found"], self.method, self.seed, self.country,
            self.kinds, shown, self.options,
        )  # fmt: skip
        batch.count(self.NAME, "spans replaced", sum(len(r.key) for r in batch["result"]))
        return batch


class Rewrite(Step):
    """The language-model methods: the model writes each document again."""

    NAME, NEEDS, GIVES = "anonymize", ("shown",), ("result",)

    def __init__(self, writer, detectors: list):
        self.writer, self.detectors = writer, detectors

    def run(self, batch: Batch) -> Batch:
        texts = [s.text for s in batch["shown"]]
        batch["result"] = rewritten(texts, self.detectors, self.writer)
        return batch


class Explain(Step):
    """Each result's decisions, the whole of each in one row (`decisions`)."""

    NAME, NEEDS, GIVES = "explain", ("shown", "found", "traces", "result"), ()

    def __init__(self, method: str):
        self.plan = method_plan(method)

    def run(self, batch: Batch) -> Batch:
        columns = (batch[c] for c in ("result", "found", "shown", "traces"))
        for result, spans, seen, trace in zip(*columns):
            result.decisions = decisions(seen, spans, trace, result, self.plan)
        return batch


def document_steps(
    detectors: list,
    method: str,
    seed: int,
    country: str = "US",
    writer=None,
    options: dict | None = None,
    explain: bool = False,
) -> list[Step]:
    """The steps between read and write: `method` (one name, or one per type:
    synth.deid.anonymizer.methods); `writer` (a synth.deid.llm.LlmTask) does the
    language-model methods; `options`: --method-option's values, given to every
    operator; `explain`: the explain step is there."""
    if writer is not None:
        return [DisplayOrder(), Rewrite(writer, detectors)]
    kinds = kind_classifier(detectors)
    anonymize = Anonymize(method, seed, country, kinds, options)
    steps = [DisplayOrder(), Analyze(detectors, explain), anonymize]
    return steps + [Explain(method)] if explain else steps


def deidentify(ids: list[str], texts: list[str], *how, **named) -> list[Replaced]:
    """The documents through `document_steps(*how, **named)`: a notebook's or a test's
    way in, without the job's read and write."""
    batch = Batch({"id": list(ids), "text": list(texts)})
    return run_steps(document_steps(*how, **named), batch)["result"]


def decisions(shown: Shown, spans: list[Span], trace: Trace, result: Replaced, plan) -> list:
    """Per span replaced, and per span a rule dropped, in text order: its words (as a
    reader sees them), its place in the document as written (a right-to-left override's
    run is read turned round, its offsets are the input's: issue 94 EXP1), type,
    detector (and Presidio's recognizer and decision where Presidio found it), the score
    of the type it ended with, the rules that changed it, and what it became: the
    method of its type (`plan`), the replacement and where that stands in the shared
    text (`result`'s key); where a surrogate of its type did not fit (a date it cannot
    read), what was written instead (`surrogate: …`)."""
    rows = sorted((_decision(shown, s, "replaced", None) for s in spans), key=_as_read)
    for row, entry, note in zip(rows, result.key, result.notes or [None] * len(rows)):
        row |= {"method": plan.method_of(row["type"]), "replacement": entry["replacement"]}
        row |= {"shared_start": entry["start"], "shared_end": entry["end"]}
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


def _as_read(row: dict) -> tuple:
    """The key's order: the spans' as read (replace_spans walks them sorted)."""
    return (row["shown"], row["start"])


def _decision(shown: Shown, span: Span, outcome: str, dropped_by: str | None) -> dict:
    start, end = shown.to_original(span.start, span.end)
    return {
        "shown": (span.start, span.end),
        "start": start,
        "end": end,
        "words": shown.text[span.start : span.end],
        "type": span.type,
        "detector": span.detector,
        "score": span.score,
        "rules": list(span.history),
        "outcome": outcome,
        "dropped_by": dropped_by,
        "recognizer": span.recognizer,
        "decision_process": span.decision,
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
