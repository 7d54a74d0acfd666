"""One block of whole shards de-identified and written: the shareable shard (DEID_SCHEMA)
and, only when a key folder is given, the key shard beside it there. The key is written
first, so a shard that exists always has its key."""

import re
from collections import defaultdict

import pyarrow as pa
import pyarrow.fs as pafs

from synth import ConfigError
from synth.deid.analyzer.detectors import make_detectors
from synth.deid.anonymizer.methods import uses_language_model
from synth.deid.anonymizer.operators import Replaced
from synth.deid.corpus import DEID_SCHEMA, EXPLAIN_SCHEMA, KEY_SCHEMA
from synth.deid.llm import LlmDetector, LlmTask, make_engine
from synth.deid.pipeline import deidentify
from synth.io.layout import EXPLAIN, LOCK, kept, sibling
from synth.io.shards import shard_path, write_recorded, writer_mark
from synth.io.storage import filesystem, join, owner_only_folder

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
            "key; give an empty folder or one a previous run wrote its key into"
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
    detectors = make_detectors(names, options["ner_model"], make_llm, gate)
    writer = LlmTask(engine, method, *llm_args) if uses_language_model(method) else None
    return detectors, writer


def write_deidentified(block: pa.Table, tools, options: dict, output: str, key_output) -> pa.Table:
    """`block`: id, original_id, text, label, shard; `tools`: make_tools' detectors and writer.
    Returns shard, rows, spans per shard written."""
    ids, texts = block.column("id").to_pylist(), block.column("text").to_pylist()
    detectors, writer = tools
    from synth.deid.anonymizer.context import method_options

    extra = (method_options(options.get("method_option")), bool(options.get("explain")))
    args = (detectors, options["method"], options["seed"], options["country"], writer, *extra)
    try:
        done = deidentify(ids, texts, *args)
    except ConfigError:  # a detector's wrong answer (checked_spans): the run stops, one line
        raise
    except Exception:  # noqa: BLE001 (find the document at fault; the others go through)
        done = [_one(doc_id, text, args) for doc_id, text in zip(ids, texts)]
    rows, keys, explained = defaultdict(list), defaultdict(list), defaultdict(list)
    for doc_id, original, label, shard, result in zip(
        ids, *(block.column(c).to_pylist() for c in ("original_id", "label", "shard")), done
    ):
        rows[shard].append(
            {
                "id": doc_id,
                "text": result.text,
                "label": label,
                "spans": [
                    {"start": s.start, "end": s.end, "type": s.type, "detector": s.detector}
                    for s in result.spans
                ],
                "method": options["method"],
                "error": result.error,
            }
        )
        keys[shard] += [{"id": doc_id, **entry} for entry in result.key]
        explained[shard] += [{"id": doc_id, **entry} for entry in result.decisions or []]
        if original != doc_id:  # the shareable id is a position: the key says whose
            keys[shard].append(
                {"id": doc_id, "type": ID_TYPE, "original": original, "replacement": doc_id}
            )
    counts = {"shard": [], "rows": [], "spans": []}
    if key_output and isinstance(filesystem(key_output)[0], pafs.LocalFileSystem):
        owner_only_folder(filesystem(key_output)[1])  # its shards lie a folder down
        owner_only_folder(sibling(filesystem(key_output)[1]))  # digests, --explain
    for shard in sorted(rows):
        if key_output and options.get("explain"):  # before the key: a key has its decisions
            write_recorded(
                shard_path(kept(key_output, EXPLAIN), shard),
                pa.Table.from_pylist(explained[shard], EXPLAIN_SCHEMA),
                owner_only=True,
            )
        if key_output:
            write_recorded(
                shard_path(key_output, shard),
                pa.Table.from_pylist(keys[shard], KEY_SCHEMA),
                owner_only=True,
            )
        table = pa.Table.from_pylist(rows[shard], DEID_SCHEMA)
        write_recorded(
            shard_path(output, shard),
            table.replace_schema_metadata(writer_mark("deidentify", options["run_id"])),
        )
        counts["shard"].append(shard)
        counts["rows"].append(len(rows[shard]))
        counts["spans"].append(sum(len(r["spans"]) for r in rows[shard]))
    return pa.table(counts)


def _one(doc_id: str, text: str, args) -> Replaced:
    """One document alone; one that fails is written without text (never the original),
    its error saying what failed: the exception's type, and its message only where the
    exception says it holds no content (`content_free`): the row is shareable."""
    try:
        return deidentify([doc_id], [text], *args)[0]
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001 (one document's failure is its own error)
        message = f": {e}" if getattr(e, "content_free", False) else ""
        return Replaced(None, [], [], error=f"{type(e).__name__}{message}")
