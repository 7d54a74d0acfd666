"""Planned documents in, written shards out: what a generation actor does, without Ray.

Renders the documents in batches with the engine, runs the personal-data audit over each
shard's rows, and writes each shard (atomically, its summary in the footer). The Ray
actor (jobs/on_ray/slot_filling.py) only adapts blocks to it; a notebook or a test can
use it as it is. It sits above the foundations: it joins generation, the audit and
storage.
"""

from collections import defaultdict
from collections.abc import Callable

from synth.deid.audit import AuditSettings, audit_rows
from synth.generation.params import GenerationParams
from synth.generation.render import render_fitting
from synth.io.shards import write_shard
from synth.record import PlannedDocument


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
        on_batch: Callable[[int], None] | None = None,
    ):
        """`style`: the prompt style of documents that carry none (CVs); `on_batch(n)`
        after every rendered batch of n documents (progress)."""
        self.engine, self.params, self.style, self.seed = engine, params, style, seed
        self.output, self.batch_size, self.audit = output, batch_size, audit
        self.on_batch, self.auditor = on_batch, None

    def write(self, docs: list[PlannedDocument]) -> list[tuple[int, dict]]:
        """Every shard the documents make up (whole shards only), written; (shard, its
        summary) in shard order."""
        rows = []
        for i in range(0, len(docs), self.batch_size):
            batch = docs[i : i + self.batch_size]
            rows += render_fitting(batch, self.engine, self.params, self.style, self.seed)
            if self.on_batch is not None:
                self.on_batch(len(batch))
        by_shard = defaultdict(list)
        for doc, row in zip(docs, rows):
            by_shard[doc.shard].append(row)
        return [
            (s, write_shard(self.output, s, *self._audited(r))) for s, r in sorted(by_shard.items())
        ]

    def _audited(self, rows: list[dict]) -> tuple[list[dict], dict]:
        """A shard's rows after the personal-data audit, and its counts for the footer."""
        if self.audit.policy != "off" and self.auditor is None:
            from synth.deid.detectors import make_detectors

            (self.auditor,) = make_detectors(["presidio"])  # loaded once per writer
        rows, counts = audit_rows(rows, self.auditor, self.audit)
        return rows, {"pii_audit": counts}
