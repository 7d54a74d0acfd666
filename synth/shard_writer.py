"""generate's steps (synth.steps): plan → render → audit → write, what a generation actor
does, without Ray.

Plan makes the documents of the shards it is given (synth.kinds.Planner, each shard's DP
rows written before it); render fills their slots with the engine in batches; audit reads
each row with the analyze step deidentify uses (synth.deid.pipeline.Analyze) and applies
the personal-data policy; write writes each shard atomically, its summary in the footer.
The Ray actor (jobs/on_ray/steps_actor.py) maps the list over blocks of shard numbers;
`ShardWriter` runs it in a notebook or a test. It sits above the foundations: it joins
generation, the analyzer and storage.
"""

from collections import defaultdict
from collections.abc import Callable

from synth.deid.audit import AuditSettings, audit_rows
from synth.generation.params import GenerationParams
from synth.generation.render import render_fitting
from synth.io.shards import write_dp_part, write_shard
from synth.record import PlannedDocument
from synth.steps import Batch, Step, run_steps


class Plan(Step):
    """Shard numbers in, their planned documents out (a shard's DP rows written first,
    its planning counts kept for its footer)."""

    NAME, NEEDS, GIVES = "plan", ("shard",), ("document",)

    def __init__(self, planner, output: str):
        self.planner, self.output = planner, output

    def run(self, batch: Batch) -> Batch:
        docs = []
        for shard in map(int, batch["shard"]):
            plan = self.planner.plan_shard(shard)
            if plan.dp_samples is not None:
                write_dp_part(self.output, shard, plan.dp_samples)
            dp_rows = 0 if plan.dp_samples is None else len(plan.dp_samples)
            batch.about(shard, planning=plan.counts, dp_sample_rows=dp_rows)
            docs += plan.docs
        batch.count(self.NAME, "documents planned", len(docs))
        return Batch({"document": docs}, batch.counts, batch.shards)


class Render(Step):
    """Each document's slots filled, `batch_size` documents per engine call; the prompt
    tokens an engine computed shared out to the shards (`tokens_prefilled`).
    `on_documents(n)` as n more documents finish (progress), each counted once, as its
    last slot is written, not when its batch ends."""

    NAME, NEEDS, GIVES = "render", ("document",), ("row",)

    def __init__(
        self,
        engine,
        params: GenerationParams,
        style: str,
        seed: int,
        batch_size: int,
        on_documents: Callable[[int], None] | None = None,
    ):
        self.engine, self.params, self.style, self.seed = engine, params, style, seed
        self.batch_size, self.on_documents = batch_size, on_documents
        self.counted: set[int] = set()  # this engine batch's documents told to on_documents

    def run(self, batch: Batch) -> Batch:
        docs, rows, prefilled = batch["document"], [], defaultdict(float)
        for i in range(0, len(docs), self.batch_size):
            part = docs[i : i + self.batch_size]
            before = getattr(self.engine, "prefilled_tokens", None)
            self.counted = set()
            made = render_fitting(
                part, self.engine, self.params, self.style, self.seed, self._finished
            )
            after = getattr(self.engine, "prefilled_tokens", None)
            if before is not None and after is not None:
                _share_out(prefilled, after - before, part, made)
            rows += made
        for shard, tokens in prefilled.items():
            batch.about(shard, tokens_prefilled=round(tokens))
        batch["row"] = rows
        batch.count(self.NAME, "documents written", len(rows))
        return batch

    def _finished(self, indexes: list[int]) -> None:
        """Count documents as they finish; one that a batch retried in halves (out of
        memory) finishes twice and is counted once."""
        if self.on_documents is None:
            return
        new = set(indexes) - self.counted
        self.counted |= new
        if new:
            self.on_documents(len(new))


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


class Audit(Step):
    """Each shard's rows read by the analyze step (Presidio, the decision rules) and the
    personal-data policy applied (synth.deid.audit); its counts kept for the footer."""

    NAME, NEEDS, GIVES = "audit", ("document", "row"), ()

    def __init__(self, settings: AuditSettings):
        self.settings, self.analyze = settings, None

    def run(self, batch: Batch) -> Batch:
        by_shard = defaultdict(list)
        for i, doc in enumerate(batch["document"]):
            by_shard[doc.shard].append(i)
        rows = list(batch["row"])
        for shard, indexes in by_shard.items():
            mine = [rows[i] for i in indexes]
            audited, counts = audit_rows(mine, self._found(mine), self.settings)
            for i, row in zip(indexes, audited):
                rows[i] = row
            batch.about(shard, pii_audit=counts)
            batch.count(self.NAME, "rows with findings", counts["rows_with_findings"])
        batch["row"] = rows
        return batch

    def _found(self, rows: list[dict]) -> list | None:
        """What the analyze step finds in each row's text, in the text's offsets."""
        if self.settings.policy == "off" or not rows:
            return None
        from synth.deid.analyzer.analyze import Analyze, found_in
        from synth.deid.analyzer.detectors import make_detectors

        if self.analyze is None:  # Presidio loaded once per actor
            self.analyze = Analyze(make_detectors(["presidio"]))
        return found_in([row["text"] for row in rows], self.analyze)


# What the Ray edge sends back of the write step's batch (jobs/on_ray/steps_actor.py).
RETURNS = ("shard", "rows", "generated_tokens", "failed")


class Write(Step):
    """Each shard written (whole shards only), what the steps learned of it in its
    footer; a batch of the shards written comes out: shard, its summary and RETURNS."""

    NAME, NEEDS, GIVES = "write", ("document", "row"), ("summary", *RETURNS[1:])

    def __init__(self, output: str):
        self.output = output

    def run(self, batch: Batch) -> Batch:
        by_shard = defaultdict(list)
        for doc, row in zip(batch["document"], batch["row"]):
            by_shard[doc.shard].append(row)
        shards = sorted(by_shard)
        summaries = [
            write_shard(self.output, s, by_shard[s], batch.shards.get(s, {})) for s in shards
        ]
        written = Batch({"shard": shards, "summary": summaries}, batch.counts, batch.shards)
        written["rows"] = [summary["rows"] for summary in summaries]
        written["generated_tokens"] = [summary["tokens_generated"] for summary in summaries]
        # failed rows: an error other than a flagged free-form ticket
        written["failed"] = [
            summary["rows_with_error"] - summary["rows_flagged_no_variables"]
            for summary in summaries
        ]
        written.count(self.NAME, "shards written", len(shards))
        return written


class ShardWriter:
    """generate's steps made once (an actor's, a notebook's): `steps(planner)` for shard
    numbers (the Ray actor runs them), `write` over planned documents."""

    def __init__(self, render: Render, audit: AuditSettings, output: str):
        self.output = output
        self.after = [render, Audit(audit), Write(output)]

    def steps(self, planner) -> list[Step]:
        """plan → render → audit → write."""
        return [Plan(planner, self.output), *self.after]

    def write(
        self, docs: list[PlannedDocument], footers: dict[int, dict] | None = None
    ) -> list[tuple[int, dict]]:
        """Every shard the documents make up (whole shards only), written, `footers`'
        entry for the shard added to its summary; (shard, its summary) in shard order."""
        batch = Batch({"document": list(docs)}, shards=dict(footers or {}))
        written = run_steps(self.after, batch)
        return list(zip(written["shard"], written["summary"]))
