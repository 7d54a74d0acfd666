"""Planned documents in, written shards out: what a generation actor does, without Ray.

Plans the shards it is given (or takes planned documents), renders the documents in
batches with the engine, runs the personal-data audit over each shard's rows, and writes
each shard (atomically, its summary in the footer). The Ray
actor (jobs/on_ray/slot_filling.py) only adapts blocks to it; a notebook or a test can
use it as it is. It sits above the foundations: it joins generation, the audit and
storage.
"""

from collections import defaultdict
from collections.abc import Callable

from synth.deid.audit import AuditSettings, audit_rows
from synth.generation.params import GenerationParams
from synth.generation.render import render_fitting
from synth.io.shards import write_dp_part, write_shard
from synth.record import PlannedDocument


def _share_out(prefilled: dict, tokens: int, batch: list[PlannedDocument], rows: list[dict]):
    """The prompt tokens an engine computed for a batch, to the shards of its documents:
    all to the one shard of a batch within a shard (the usual case: batch_size divides
    shard_size), else by each shard's share of the batch's prompt tokens."""
    asked = defaultdict(int)
    for doc, row in zip(batch, rows):
        asked[doc.shard] += row["prompt_tokens"]
    total = sum(asked.values()) or 1
    for shard, n in asked.items():
        prefilled[shard] += tokens * n / total if len(asked) > 1 else tokens


class ShardWriter:
    def __init__(
        self,
        engine,
        params: GenerationParams,
        style: str,
        seed: int,
        output: str,
        batch_size: int,
        audit: AuditSettings,
        on_documents: Callable[[int], None] | None = None,
    ):
        """`style`: the prompt style of documents that carry none (CVs); `on_documents(n)`
        as n more documents finish (progress), each counted once, as its last slot is
        written, not when its batch ends."""
        self.engine, self.params, self.style, self.seed = engine, params, style, seed
        self.output, self.batch_size, self.audit = output, batch_size, audit
        self.on_documents, self.auditor = on_documents, None
        self.counted: set[int] = set()  # this batch's documents told to on_documents

    def write_planned(self, planner, shards: list[int]) -> list[tuple[int, dict]]:
        """Shards planned here (synth.kinds.Planner), each one's DP rows written before
        it, its planning counts kept in its footer; (shard, its summary) in shard order."""
        docs, footers = [], {}
        for shard in shards:
            plan = planner.plan_shard(shard)
            if plan.dp_samples is not None:
                write_dp_part(self.output, shard, plan.dp_samples)
            dp_rows = 0 if plan.dp_samples is None else len(plan.dp_samples)
            footers[shard] = {"planning": plan.counts, "dp_sample_rows": dp_rows}
            docs += plan.docs
        return self.write(docs, footers)

    def write(
        self, docs: list[PlannedDocument], footers: dict[int, dict] | None = None
    ) -> list[tuple[int, dict]]:
        """Every shard the documents make up (whole shards only), written, `footers`'
        entry for the shard added to its summary; (shard, its summary) in shard order."""
        rows, prefilled = [], defaultdict(float)
        for i in range(0, len(docs), self.batch_size):
            batch = docs[i : i + self.batch_size]
            before = getattr(self.engine, "prefilled_tokens", None)
            self.counted = set()
            made = render_fitting(
                batch, self.engine, self.params, self.style, self.seed, self._finished
            )
            after = getattr(self.engine, "prefilled_tokens", None)
            if before is not None and after is not None:
                _share_out(prefilled, after - before, batch, made)
            rows += made
        by_shard = defaultdict(list)
        for doc, row in zip(docs, rows):
            by_shard[doc.shard].append(row)
        footers = footers or {}
        for s in by_shard:
            counted = {"tokens_prefilled": round(prefilled[s])} if s in prefilled else {}
            footers[s] = {**footers.get(s, {}), **counted}
        return [
            (s, write_shard(self.output, s, *self._audited(r, footers.get(s, {}))))
            for s, r in sorted(by_shard.items())
        ]

    def _finished(self, indexes: list[int]) -> None:
        """Count documents as they finish; one that a batch retried in halves (out of
        memory) finishes twice and is counted once."""
        if self.on_documents is None:
            return
        new = set(indexes) - self.counted
        self.counted |= new
        if new:
            self.on_documents(len(new))

    def _audited(self, rows: list[dict], footer: dict) -> tuple[list[dict], dict]:
        """A shard's rows after the personal-data audit, and its counts for the footer."""
        if self.audit.policy != "off" and self.auditor is None:
            from synth.deid.analyzer.detectors import make_detectors

            (self.auditor,) = make_detectors(["presidio"])  # loaded once per writer
        rows, counts = audit_rows(rows, self.auditor, self.audit)
        return rows, {**footer, "pii_audit": counts}
