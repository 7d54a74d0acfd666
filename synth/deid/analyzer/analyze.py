"""The analyzer's pipeline: every detector over a batch, their spans merged and their
types decided by the registered rules (synth.deid.analyzer.rules), each part of a full
name found again where the document writes it alone.

Detectors read the text normalised (synth.deid.analyzer.normalise); the spans come back
in the offsets of the text as written, each with its detector, score and the rules that
changed it (synth.deid.spans). `traces`, when given, collects per document what the
rules dropped (`deidentify --explain`).
"""

import re
from dataclasses import replace

from synth.deid.analyzer.normalise import normalise
from synth.deid.analyzer.rules import RULES as DECISION_RULES
from synth.deid.analyzer.rules import Trace, decided, finished, traced, unmerged
from synth.deid.lexicon.names import first_names, name_word
from synth.deid.spans import Span, checked_spans, joined_clauses, resolve
from synth.deid.visible import display_order
from synth.steps import Batch, Step, run_steps


def detect(
    texts: list[str], detectors: list, traces: list[Trace] | None = None
) -> list[list[Span]]:
    """Every detector over the batch, their spans merged (`merged`). Detectors read the
    text normalised (synth.deid.analyzer.normalise: zero-width and bidi controls out, NFKC); the
    spans come back in the offsets of the text as written."""
    read = [normalise(text).text for text in texts]
    found = [[] for _ in texts]
    for detector in detectors:
        for spans, more in zip(found, checked_spans(detector, read, detector.detect(read))):
            spans += more
    return merged(texts, found, traces=traces)


def merged(
    texts: list[str],
    found: list[list[Span]],
    rules=DECISION_RULES,
    traces: list[Trace] | None = None,
) -> list[list[Span]]:
    """Per text as written, the spans detectors found in its normalised form: merged
    (synth.deid.spans.resolve), their types decided (synth.deid.analyzer.rules; `rules` leaves
    some out to measure them), each part of a full name found again where the document
    writes it alone, mapped back to the text's offsets, and pieces of one clause joined."""
    out = []
    for i, (text, spans) in enumerate(zip(texts, found)):
        trace = traces[i] if traces is not None else None
        plain = normalise(text)
        spans = unmerged(plain.text, spans, rules, trace)
        spans = decided(plain.text, traced("overlap", spans, resolve(spans), trace), rules, trace)
        more = resolve(spans + name_parts_alone(plain.text, spans))
        spans = traced("name parts", spans, more, trace)
        back = [_to_original(plain, s) for s in spans]
        joined = joined_clauses(text, traced("overlap", back, resolve(back), trace))
        out.append(finished(text, joined, rules, trace))
    return out


def _to_original(plain, span: Span) -> Span:
    start, end = plain.to_original(span.start, span.end)
    return replace(span, start=start, end=end)


HYPHENATED_SURNAME = re.compile(r"[A-Z][\w'’]+(?:-[A-Z][\w'’]+)+")


def _first_name_before(text: str, span: Span) -> bool:
    """Whether the word just before a person's span is their first name: a known first
    name, or a capitalised name-like word before a hyphenated surname whose parts are
    capitalised. spaCy reads `Fergus McAllister-Byrne` as the surname alone (issue 84:
    the first name was kept); a capitalised word before any other name (`Senior`,
    `See`, `Migrate`) is no first name by its case alone."""
    before = re.search(r"(?<![\w-])([\w'’-]+) $", text[max(0, span.start - 40) : span.start])
    if not before:
        return False
    word = before[1]
    if word in first_names():
        return True
    hyphenated = HYPHENATED_SURNAME.fullmatch(text[span.start : span.end])
    return bool(hyphenated) and name_word(word) and "-" not in word


def name_parts_alone(text: str, spans: list[Span]) -> list[Span]:
    """`Ana` where the document also names `Ana Souza` (or `Ana`) as a person: a first
    name alone identifies her to anyone who read the full one, and detectors miss it
    without context. Capitalised parts of two or more letters, as whole words, case as
    written."""
    people = [s for s in spans if s.type == "PERSON"]
    for s in list(people):  # "Ana Souza" found as "Souza": her first name just before
        if _first_name_before(text, s):
            before = re.search(r"(?<![\w-])([\w'’-]+) $", text[max(0, s.start - 40) : s.start])
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


# --- the analyzer as steps (synth.steps): deidentify's, and generate's audit ------------


class DisplayOrder(Step):
    """Each text as a person reads it (a right-to-left override's run turned round)."""

    NAME, NEEDS, GIVES = "display order", ("text",), ("shown",)

    def run(self, batch: Batch) -> Batch:
        batch["shown"] = [display_order(text) for text in batch["text"]]
        return batch


class Analyze(Step):
    """Every detector over the batch, their spans decided by the rules; with `explain`,
    what the rules dropped (`traces`)."""

    NAME, NEEDS, GIVES = "analyze", ("shown",), ("found", "traces")

    def __init__(self, detectors: list, explain: bool = False):
        self.detectors, self.explain = detectors, explain

    def run(self, batch: Batch) -> Batch:
        from synth.deid.parsing import forget

        forget()  # the last batch's parses: this one is read afresh
        texts = [s.text for s in batch["shown"]]
        traces = [Trace() for _ in texts] if self.explain else None
        batch["found"] = detect(texts, self.detectors, traces)
        batch["traces"] = traces or [None] * len(texts)
        batch.count(self.NAME, "spans found", sum(map(len, batch["found"])))
        for detector in self.detectors:  # what the manifest says its encoder ran at
            if getattr(detector, "precision", None):
                what = f"documents read by {detector.name} at {detector.precision}"
                batch.count(self.NAME, what, len(texts))
        return batch


def found_in(texts: list[str], analyze: Analyze) -> list[list[Span]]:
    """What the analyze step finds in each text, in the text's own offsets (generate's
    audit reads its rows so: synth.shard_writer.Audit)."""
    read = run_steps([DisplayOrder(), analyze], Batch({"text": list(texts)}))
    return [
        [replace(s, start=a, end=b) for s in spans for a, b in [shown.to_original(s.start, s.end)]]
        for shown, spans in zip(read["shown"], read["found"])
    ]
