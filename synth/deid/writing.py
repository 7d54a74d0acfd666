"""deidentify's steps as one actor runs them (job_steps), and its write step: the
shareable shard (DEID_SCHEMA) and, only when a key folder is given, the key shard beside
it there. The key is written first, so a shard that exists always has its key."""

import re
from collections import Counter, defaultdict

import pyarrow as pa
import pyarrow.fs as pafs

from synth import ConfigError
from synth.deid.analyzer.analyze import Analyze, DisplayOrder
from synth.deid.analyzer.detectors import make_detectors
from synth.deid.anonymizer.methods import uses_language_model
from synth.deid.anonymizer.operators import Replaced
from synth.deid.corpus import DEID_SCHEMA, EXPLAIN_SCHEMA, KEY_SCHEMA
from synth.deid.llm import LlmDetector, LlmTask, make_engine
from synth.deid.pipeline import READ, Anonymize, Explain, Rewrite, document_steps
from synth.io.layout import EXPLAIN, LOCK, kept, sibling
from synth.io.shards import shard_path, write_recorded, writer_mark
from synth.io.storage import filesystem, join, owner_only_folder
from synth.steps import (
    Batch,
    Step,
    check_order,
    installed_step,
    placed,
    run_steps,
    user_steps,
)

JOB = "deidentify"

ID_TYPE = "DOCUMENT_ID"  # the key's row mapping a shareable id to the input's id


def check_key_folder(key_output: str) -> None:
    """Refuse, before any work, a --key-output that already holds anything but a key of
    this job (its shards in `data/`; beside it, in `KEY.hrsynth/`, their digests, the
    --explain shards and the lock): the key's folders are made owner-only and the key
    written among whatever is there, so $HOME or a folder of the user's files is never
    taken for one."""
    from synth.io.shards import refuse_old_layout

    refuse_old_layout(key_output, "--key-output")
    stranger = _not_ours(key_output, KEY_SCHEMA, {EXPLAIN: EXPLAIN_SCHEMA})
    if stranger:
        raise ConfigError(
            f"--key-output {key_output} holds {stranger}, which is not a de-identification "
            "key of this release (earlier keys had no offsets); give an empty folder or "
            "one a run of this release wrote its key into"
        )


def _not_ours(folder: str, schema: pa.Schema, subfolders: dict) -> str | None:
    """The first entry this job did not write, or None: in `folder`, its shards in
    `data/`; in the folder's sibling (synth.io.layout), their digests in `_written/`,
    the lock and `subfolders` (name: their schema). A folder inside a sibling (the
    --explain shards') holds its shards and their digests together. Entries of the
    sibling are named by their path."""
    from synth.io.layout import DATA, WRITTEN, inside_sibling

    fs, path = filesystem(folder)
    if inside_sibling(path):
        places = [(path, "", {DATA, WRITTEN})]
    else:
        places = [(path, "", {DATA}), (sibling(path), f"{sibling(folder)}/", {WRITTEN, LOCK})]
        places[1][2].update(subfolders)
    for where, shown, allowed in places:
        for entry in fs.get_file_info(pafs.FileSelector(where, allow_not_found=True)):
            name = entry.base_name
            if _temporary(name) or (name == LOCK and name in allowed):
                continue
            if name not in allowed or entry.type != pafs.FileType.Directory:
                return shown + name
            if name == WRITTEN:
                odd = _odd_entries(fs, join(where, name), _digest)
            elif name == DATA:
                odd = _odd_entries(fs, join(where, name), lambda e: _shard_of(fs, e, schema))
            else:
                odd = _not_ours(join(where, name), subfolders[name], {})
            if odd:
                return f"{shown}{name}/{odd}"
    return None


_DIGEST = re.compile(r"part-\d{5}\.parquet\.sha256(\.tmp.*)?")


def _digest(entry) -> bool:
    return entry.type == pafs.FileType.File and bool(_DIGEST.fullmatch(entry.base_name))


def _temporary(name: str) -> bool:
    return name.startswith(".") and ".tmp" in name


def _odd_entries(fs, path: str, ours) -> str | None:
    """The first entry of `path` that `ours` refuses (atomic writes' temporaries aside)."""
    for entry in fs.get_file_info(pafs.FileSelector(path)):
        if not _temporary(entry.base_name) and not ours(entry):
            return entry.base_name
    return None


def _shard_of(fs, entry, schema: pa.Schema) -> bool:
    """Whether `entry` is a shard in `schema` (its name and columns)."""
    import pyarrow.parquet as pq

    if entry.type != pafs.FileType.File or not re.fullmatch(
        r"part-\d{5}\.parquet", entry.base_name
    ):
        return False
    try:
        with fs.open_input_file(entry.path) as f:
            return pq.read_schema(f).remove_metadata() == schema
    except (OSError, pa.ArrowInvalid):
        return False


def make_tools(options: dict) -> tuple[list, LlmTask | None]:
    """The detectors and, for rewrite and abstract, the writer, built once where they run
    (one engine shared by the writer and the llm detector)."""
    method, names = options["method"], options["detectors"]
    engine = None
    if uses_language_model(method) or "llm" in names:
        engine = make_engine(options["model"], options.get("endpoint"), options.get("device"))
    llm_args = (
        options["temperature"],
        options["max_new_tokens"],
        options["seed"],
        options["batch_size"],
    )
    make_llm = lambda: LlmDetector(engine, *llm_args)
    gate = options.get("clause_types", "kind")
    precision = options.get("encoder_precision", "auto")
    detectors = make_detectors(names, options["ner_model"], make_llm, gate, precision)
    writer = LlmTask(engine, method, *llm_args) if uses_language_model(method) else None
    return detectors, writer


def job_steps(options: dict, output: str, key_output: str | None, tools=None) -> list[Step]:
    """deidentify's steps after read, built once where they run: display order, analyze,
    anonymize, explain (with --explain) and the user's --step's where their AFTER says,
    each document alone where they fail on a batch (DocumentsAlone); then write.
    `tools`: make_tools' detectors and writer (built here when not given)."""
    from synth.deid.anonymizer.context import method_options

    detectors, writer = tools or make_tools(options)
    explain = bool(options.get("explain"))
    how = (options["method"], options["seed"], options["country"], writer)
    steps = document_steps(detectors, *how, method_options(options.get("method_option")), explain)
    steps = placed(steps, user_steps(options.get("step"), options.get("step_option")), JOB)
    return [DocumentsAlone(steps), WriteShards(options, output, key_output)]


# What the Ray edge sends back of the write step's batch (jobs/on_ray/steps_actor.py).
RETURNS = ("shard", "rows", "spans")


def check_job_steps(names: list[str], options: str | None, explain: bool, spans: bool):
    """The user's steps made and placed on the driver, before any work: a step that
    cannot load, refuses its options, follows no step of this job or comes before what
    it needs is one line (synth.steps)."""
    from synth import plugins

    if not names:
        raise ConfigError("--step-option: no --step is named to take it; name one with --step")
    plugins.check_chosen("steps", {}, installed_step, names)
    ours = [DisplayOrder, Analyze, Anonymize] if spans else [DisplayOrder, Rewrite]
    steps = placed(ours + [Explain] * explain, user_steps(names, options), JOB)
    check_order([*steps, WriteShards], READ, JOB)


class DocumentsAlone(Step):
    """`steps` over the batch; where they fail on it, over each document alone: one
    that fails is written without text (never the original), its error saying what
    failed. Every shard of the batch is known to the write step, even one whose
    documents a step left out."""

    NAME, NEEDS, GIVES = "documents", READ, ("result",)

    def __init__(self, steps: list[Step]):
        self.steps = steps

    def run(self, batch: Batch) -> Batch:
        for shard in batch["shard"]:
            batch.about(shard)
        try:
            return run_steps(self.steps, batch)
        except ConfigError:  # a detector's wrong answer (checked_spans): the run stops
            raise
        except Exception:  # noqa: BLE001 (find the document at fault; the others go through)
            alone = [_one(self.steps, batch.one(i)) for i in range(len(batch))]
        columns = {name: [v for one in alone for v in one[name]] for name in (*READ, "result")}
        counts = sum((one.counts for one in alone), Counter())  # the failed try counts nothing
        return Batch(columns, counts, batch.shards)


class WriteShards(Step):
    """Each shard's rows written (and its key, and its decisions with --explain, before
    it, when a key folder is given); what comes out is a batch of the shards written:
    shard, rows, spans."""

    NAME, NEEDS, GIVES = "write", ("id", "original_id", "label", "shard", "result"), ()

    def __init__(self, options: dict, output: str, key_output: str | None):
        self.options, self.output, self.key_output = options, output, key_output

    def run(self, batch: Batch) -> Batch:
        rows, keys, explained = _rows_by_shard(batch, self.options["method"])
        key_output = self.key_output
        written = Batch({"shard": [], "rows": [], "spans": []}, batch.counts)
        if key_output and isinstance(filesystem(key_output)[0], pafs.LocalFileSystem):
            owner_only_folder(filesystem(key_output)[1])  # its shards lie a folder down
            owner_only_folder(sibling(filesystem(key_output)[1]))  # digests, --explain
        for shard in sorted(set(rows) | set(batch.shards)):  # a shard a step emptied too
            if key_output and self.options.get("explain"):  # before the key
                self._write(kept(key_output, EXPLAIN), shard, explained, EXPLAIN_SCHEMA)
            if key_output:
                self._write(key_output, shard, keys, KEY_SCHEMA)
            table = pa.Table.from_pylist(rows[shard], DEID_SCHEMA)
            mark = writer_mark("deidentify", self.options["run_id"])
            write_recorded(shard_path(self.output, shard), table.replace_schema_metadata(mark))
            written["shard"] += [shard]
            written["rows"] += [len(rows[shard])]
            written["spans"] += [sum(len(r["spans"]) for r in rows[shard])]
        written.count(self.NAME, "documents written", sum(written["rows"]))
        return written

    @staticmethod
    def _write(folder: str, shard: int, rows: dict, schema: pa.Schema) -> None:
        table = pa.Table.from_pylist(rows[shard], schema)
        write_recorded(shard_path(folder, shard), table, owner_only=True)


def _rows_by_shard(batch: Batch, method: str) -> tuple[dict, dict, dict]:
    """The shareable rows, the key's rows and the decisions, per shard."""
    rows, keys, explained = defaultdict(list), defaultdict(list), defaultdict(list)
    columns = (batch[c] for c in ("id", "original_id", "label", "shard", "result"))
    for doc_id, original, label, shard, result in zip(*columns):
        rows[shard].append(
            {
                "id": doc_id,
                "text": result.text,
                "label": label,
                "spans": [
                    {"start": s.start, "end": s.end, "type": s.type, "detector": s.detector}
                    for s in result.spans
                ],
                "method": method,
                "error": result.error,
            }
        )
        keys[shard] += [{"id": doc_id, **entry} for entry in result.key]
        explained[shard] += [{"id": doc_id, **entry} for entry in result.decisions or []]
        if original != doc_id:  # the shareable id is a position: the key says whose
            keys[shard].append(
                {"id": doc_id, "type": ID_TYPE, "original": original, "replacement": doc_id}
            )
    return rows, keys, explained


def _one(steps: list[Step], one: Batch) -> Batch:
    """One document through the steps alone; one that fails gets a result without text,
    its error the exception's type, and its message only where the exception says it
    holds no content (`content_free`): the row is shareable."""
    try:
        return run_steps(steps, one)
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001 (one document's failure is its own error)
        message = f": {e}" if getattr(e, "content_free", False) else ""
        one["result"] = [Replaced(None, [], [], error=f"{type(e).__name__}{message}")]
        one.count("write", "documents failed")
        return one
