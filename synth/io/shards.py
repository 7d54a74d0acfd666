"""The output folder: Parquet shards written atomically, a run file, and the manifest.

The folder is a local path or a URI (file://, s3://, gs://: synth.io.storage). It holds
the shards alone, in `data/` (`data/part-00000.parquet`, the Hub's layout): DuckDB,
Polars, Spark, Arrow datasets, pandas and `datasets.load_dataset` pointed at the folder
(or at `FOLDER/data`) read the documents and nothing else. The run file, the manifest,
the DP samples and the digests lie in the sibling `FOLDER.hrsynth/` (synth.io.layout;
issue 84: the folder read as 80 rows, the DP samples' among them; issue 94: DuckDB
still read them below the folder, Polars and `datasets` refused it). `_run.json`
records the resolved config and its fingerprint when a run starts. A rerun into the same
folder with the same fingerprint skips the shards already written, so an interrupted job
resumes without duplicates; a different config is refused.

Shards are written by whoever generated them (the Ray actors), each with a summary of
its rows in the Parquet footer (`hrsynth.summary`: counts per label, errors, tokens,
entity types found), so the manifest is built from footers, never by reading rows back.
"""

import hashlib
import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from synth import ConfigError
from synth.contract import CONTRACT_VERSION, NO_VARIABLES, SCHEMA, to_table
from synth.io.layout import (
    DATA,
    DP_PARTS,
    DP_SAMPLES,
    KEPT,
    MANIFEST,
    RUN_FILE,
    SUFFIX,
    WRITTEN,
    inside_sibling,
    kept,
    rows_folder,
    sibling,
)
from synth.io.storage import (
    exists,
    filesystem,
    join,
    read_json,
    write_atomic,
    write_json,
    write_table,
)

SUMMARY_KEY = b"hrsynth.summary"
VERSION_KEY = b"hrsynth.contract_version"
WRITER_KEY = b"hrsynth.writer"  # which job wrote a shard
RUN_KEY = b"hrsynth.run_id"  # which run wrote it: only that run's rerun may delete it
# Per shard, the SHA-256 of the bytes the job wrote (layout.WRITTEN): a footer survives
# an edit with pyarrow (a column added), a digest does not. Only a file whose bytes are
# still those is deleted or written over.


def writer_mark(job: str, run_id: str) -> dict:
    return {WRITER_KEY: job.encode(), RUN_KEY: run_id.encode()}


def shard_name(shard: int) -> str:
    return f"part-{shard:05d}.parquet"


def shard_path(folder, shard: int) -> str:
    """Where shard `shard` of an output lives (a path or URI, like the folder)."""
    return join(data_folder(folder), shard_name(shard))


def data_folder(folder) -> str:
    """The folder of an output's shards: what a reader of the documents is pointed at."""
    return rows_folder(folder)


# Settings outside the fingerprint that still decide the text of an engine whose text
# depends on its batch (synth.generation.backends.Backend.batch_free): a resume keeps them.
BATCH_SETTINGS = ("batch_size", "gpu_batch_size")


def open_output(folder, config: dict, fingerprint: str, batch_free=lambda: True) -> dict:
    """Create or reopen an output folder; refuse one made with another config, or with
    other batch sizes when the engine's text depends on them (`batch_free()` false:
    asked only when a batch size changed)."""
    folder = _writable_folder(str(folder))
    fs, path = filesystem(folder)
    run_file = kept(path, RUN_FILE)
    refuse_old_layout(folder)
    check_written(folder)
    shards = _shard_names(fs, path)
    top = [n for n in _entries(fs, path) if SHARD_NAME.fullmatch(n)]
    if (top or shards) and not exists(fs, run_file):
        stranger = f"{DATA}/{shards[0]}" if shards else top[0]
        raise ConfigError(
            f"--output {folder} holds {stranger} but no {RUN_FILE}: files this job did not "
            "write (it never deletes or mixes them); use a new or empty --output"
        )
    # A run that wrote no shard has nothing to protect: a corrected rerun takes the folder.
    if shards:
        previous = read_run(folder)
        if previous["fingerprint"] != fingerprint:
            changed = _changed(previous["config"], config)
            raise ConfigError(
                f"output {folder} holds a run made with a different config (differs in: "
                f"{', '.join(changed) or 'model or data files'}); use a new --output or "
                "rerun with the same config to resume"
            )
        _check_batch_settings(folder, previous["config"], config, batch_free)
        previous["resumed"] = previous.get("resumed", 0) + 1
        write_json(kept(folder, RUN_FILE), previous)
        return previous
    run = {
        "fingerprint": fingerprint,
        "run_id": fingerprint[:12],
        "config": config,
        "started": time.time(),
        "resumed": 0,
    }
    write_json(kept(folder, RUN_FILE), run)
    return run


def _check_batch_settings(folder, before: dict, now: dict, batch_free) -> None:
    """A resumed output mixed two texts for one seed when its batch size changed on an
    engine whose draws depend on the batch (ct2, llama.cpp's slots, beams)."""
    changed = [k for k in BATCH_SETTINGS if k in before and before[k] != now.get(k)]
    if changed and not batch_free():
        key = changed[0]
        raise ConfigError(
            f"{key}: output {folder} was begun with {key} {before[key]}, and this engine "
            "writes other text in other batches (only hf in float32 on a CPU does not); "
            f"resume with {key} {before[key]} (--{key.replace('_', '-')} "
            f"{before[key]}), or use a new --output"
        )


def check_written(folder) -> None:
    """`_written` must be a folder of files (the digests): a file in its place, or a
    folder where a digest goes, is one line here, before any work (issue 84: a 32-line
    traceback, or a failure inside an actor after the work)."""
    fs, path = filesystem(str(folder))
    where = kept(path, WRITTEN)
    kind = fs.get_file_info(where).type
    if kind == pafs.FileType.NotFound:
        return
    if kind != pafs.FileType.Directory:
        raise ConfigError(
            f"--output {folder}: {WRITTEN} is a file, where the job keeps the digests of the "
            f"shards it wrote; move it out of the folder (or use a new --output)"
        )
    for entry in fs.get_file_info(pafs.FileSelector(where)):
        if entry.type != pafs.FileType.File:
            raise ConfigError(
                f"--output {folder}: {WRITTEN}/{entry.base_name} is a folder, where the job "
                "keeps a shard's digest; move it out of the folder (or use a new --output)"
            )


def _changed(before: dict, now: dict) -> list[str]:
    """Settings that differ; inside a mapping of files, the files ('taxonomy_files/roles.yaml')."""
    changed = []
    for key in sorted(set(before) | set(now)):
        old, new = before.get(key), now.get(key)
        if old == new:
            continue
        if key.endswith("_files") and isinstance(old, dict) and isinstance(new, dict):
            changed += [
                f"{key}/{name}"
                for name in sorted(set(old) | set(new))
                if old.get(name) != new.get(name)
            ]
        else:
            changed.append(key)
    return changed


def read_run(folder) -> dict | None:
    """The folder's `_run.json`, if a run was started there."""
    fs, path = filesystem(str(folder))
    run_file = kept(path, RUN_FILE)
    if not exists(fs, run_file):
        return None
    try:
        run = read_json(fs, run_file)
        kinds = {"fingerprint": str, "run_id": str, "config": dict}
        if (
            isinstance(run, dict)
            and all(isinstance(run.get(k), t) for k, t in kinds.items())
            and type(run.get("resumed", 0)) is int
        ):
            return run
    except (OSError, ValueError):
        pass
    raise ConfigError(
        f"{kept(str(folder), RUN_FILE)} is damaged (not the run record a job writes); the "
        "shards beside it cannot be matched to a config: use a new --output, or delete the "
        "folder if you no longer need it"
    )


def _entries(fs: pafs.FileSystem, path: str) -> list[str]:
    """Names of the files and folders directly in `path` (a folder named like a shard
    must be seen, or a write over it fails deep inside Ray)."""
    info = fs.get_file_info(pafs.FileSelector(path, allow_not_found=True))
    return sorted(i.base_name for i in info if i.type != pafs.FileType.NotFound)


def _shard_names(fs: pafs.FileSystem, path: str) -> list[str]:
    """The shard names in output `path`'s data folder."""
    return [n for n in _entries(fs, rows_folder(path)) if SHARD_NAME.fullmatch(n)]


SHARD_NAME = re.compile(r"part-\d+\.parquet")


def refuse_old_layout(folder, flag: str = "--output") -> None:
    """An output of an older release: one line naming the move. Before issue 94 the
    run's own files (run file, manifest, digests, DP samples, card) lay in the folder;
    before issue 84 the shards lay at its top (the digests stay valid when moved: they
    are by name). Shard-named files with no run file are a stranger's: open_output
    refuses them as such."""
    fs, path = filesystem(str(folder))
    entries = _entries(fs, path)
    before = [n for n in entries if n in KEPT]
    if before:  # issue 94 (EXP5): the job's own files moved out of the folder
        where = sibling(folder)
        raise ConfigError(
            f"{flag} {folder} holds {before[0]}, where releases before this one kept the "
            f"run's own files; they now live beside the folder, in {where}: move them "
            f"there (mkdir {where} && mv {' '.join(before)} {where}/, in {folder}) to "
            "resume or read it"
        )
    old = [n for n in entries if SHARD_NAME.fullmatch(n)]
    if old and exists(fs, kept(path, RUN_FILE)):
        raise ConfigError(
            f"{flag} {folder} holds {old[0]} at its top, where releases before this one "
            f"wrote shards; they now live in {DATA}/: move them there (mkdir {DATA} && "
            f"mv part-*.parquet {DATA}/, in that folder) to resume or read it"
        )


def shard_dataset(folder, columns: list[str], with_file: bool = False) -> pa.Table:
    """`columns` of a job's own shards only: a README, notes or any file a user keeps in
    the folder is never read as rows. `with_file`: a `file` column names each row's shard."""
    fs, path = filesystem(str(folder))
    tables = []
    for name in _shard_names(fs, path):
        with fs.open_input_file(join(rows_folder(path), name)) as f:
            table = pq.read_table(f, columns=columns)
        if with_file:
            table = table.append_column("file", pa.array([name] * table.num_rows, pa.string()))
        tables.append(table)
    if tables:
        return pa.concat_tables(tables)
    return pa.table({c: [] for c in columns + (["file"] if with_file else [])})


def landed_shards(folder, wanted: Callable[[int], bool], seen: set[int]) -> list[tuple[int, dict]]:
    """(shard, footer summary) of the shards on disk that `wanted` and not yet `seen`:
    progress from what has landed, whichever actor wrote it and however often actors
    restarted (a shard appears whole: writes are atomic)."""
    fs, path = filesystem(str(folder))
    landed = []
    for name in _shard_names(fs, path):
        shard = shard_number(name)
        if shard in seen or not wanted(shard):
            continue
        try:
            with fs.open_input_file(join(rows_folder(path), name)) as f:
                metadata = pq.read_schema(f).metadata or {}
            landed.append((shard, json.loads(metadata[SUMMARY_KEY])))
        except (OSError, KeyError, ValueError, pa.ArrowInvalid):
            continue  # not one of ours: open_output and finished_shards name it
    return landed


def shard_number(name: str) -> int:
    """part-00012.parquet -> 12."""
    return int(name.removeprefix("part-").removesuffix(".parquet"))


def _writable_folder(folder: str) -> str:
    """`folder`, created; an --output that is a file or cannot be written is named."""
    if inside_sibling(folder):
        raise ConfigError(
            f"--output {folder} is or lies in a folder named *{SUFFIX}, where hrsynth keeps "
            "a run's own files beside its output; choose another --output"
        )
    fs, path = filesystem(folder)
    if fs.get_file_info(path).type == pafs.FileType.File:
        raise ConfigError(
            f"--output {folder} is a file; give a folder (shards and a "
            "manifest are written into it)"
        )
    # folders the job writes into (LAY3, issue 94); `_written` as a file: check_written
    for own, where in ((DATA, rows_folder(path)), (DP_PARTS, kept(path, DP_PARTS))):
        if fs.get_file_info(where).type == pafs.FileType.File:
            raise ConfigError(
                f"--output {folder} holds a file named {own} where the job writes its "
                f"{own} folder; it never deletes what it did not write: use a new --output, "
                "or move that file away"
            )
    probe = join(path, f".write-test-{time.time_ns()}")
    try:
        fs.create_dir(path, recursive=True)
        with fs.open_output_stream(probe) as f:
            f.write(b"")
        fs.delete_file(probe)
    except OSError as e:
        reason = getattr(e, "strerror", None) or str(e).splitlines()[0][:120]
        raise ConfigError(
            f"--output {folder} cannot be written ({reason}); choose a folder you can write to"
        ) from None
    return folder


def finished_shards(
    folder,
    planned_ids: Callable[[int], list[str] | None],
    run_id: str,
    schema: pa.Schema = SCHEMA,
) -> set[int]:
    """Shards of this run that are whole: the file holds exactly the ids the plan gives
    its number, in `schema`'s types (the output contract's by default). `planned_ids`:
    a shard's ids (None: beyond the plan, refused), so a run of many shards
    needs no table of them.

    A shard is this run's only when its footer names this run (`run_id`; older releases
    named none) and its ids are
    the plan's for its number: a shard of another hrsynth run copied in, a copy of this
    run's shard 0 placed as shard 1, a shard beyond the plan, a folder so named, or the
    run's shard edited and saved by another tool (no hrsynth footer) is refused and left alone,
    never deleted nor counted. This run's shard in an older contract's types is
    rewritten, never mixed in."""
    fs, path = filesystem(str(folder))
    done = set()
    for name in _shard_names(fs, path):
        where = join(rows_folder(path), name)
        problem = _foreign(fs, where, planned_ids(shard_number(name)), run_id, schema)
        if problem:
            raise ConfigError(
                f"--output {folder}: {name} {problem}; it is left alone: move it out of the "
                "folder or use a new --output"
            )
        with fs.open_input_file(where) as f:
            written = pq.read_schema(f).remove_metadata()
        if written == schema:
            done.add(shard_number(name))
        elif written_as_recorded(fs, where):
            fs.delete_file(where)  # this run's rows in an older contract: rewritten
        else:
            raise ConfigError(
                f"--output {folder}: {name} holds this run's rows in other columns, and its "
                "bytes are not those recorded when it was written (edited since, or written "
                "by an older release): it is left alone; move it out of the folder or use a "
                "new --output"
            )
    return done


def write_recorded(location: str, table: pa.Table, owner_only: bool = False) -> None:
    """A shard written atomically, the digest of its bytes recorded first (WRITTEN): a
    crash between the two leaves a record without a file, which proves nothing and
    harms nothing."""
    buffer = pa.BufferOutputStream()
    pq.write_table(table, buffer)
    data = buffer.getvalue().to_pybytes()
    digest = hashlib.sha256(data).hexdigest().encode()
    write_atomic(_record_of(location), lambda stream: stream.write(digest), owner_only)
    write_atomic(location, lambda stream: stream.write(data), owner_only)


def _record_of(location: str) -> str:
    """`_written/NAME.sha256` beside the data folder (where releases before it kept the
    shards, so their records hold for shards moved into it): the data folder holds the
    shards alone."""
    folder, name = str(location).rsplit("/", 1)
    if folder.rsplit("/", 1)[-1] == DATA:
        folder = folder.rsplit("/", 1)[0]
    return join(kept(folder, WRITTEN), f"{name}.sha256")


def written_as_recorded(fs, where: str) -> bool | None:
    """Whether the file's bytes are those its writer recorded (None: no record, as for
    shards of releases before the record)."""
    record = _record_of(where)
    if not exists(fs, record):
        return None
    with fs.open_input_stream(record) as f:
        recorded = f.read().decode(errors="replace").strip()
    digest = hashlib.sha256()
    with fs.open_input_stream(where) as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest() == recorded


def sort_shards(
    folder, planned_ids: Callable[[int], list[str] | None], run_id: str
) -> tuple[list[str], dict[str, str]]:
    """A run's own shards (`data/part-00000.parquet`: paths in the output, in order) by
    the test `finished_shards` applies, and every other Parquet file or shard-named
    entry in the data folder with why it is not one of them: what `push` publishes and
    `evaluate` trains on is the run's own, never a private table or another run's shard
    that lies beside it."""
    fs, path = filesystem(str(folder))
    own, other = [], {}
    refuse_old_layout(folder)
    for name in _entries(fs, rows_folder(path)):
        where = f"{DATA}/{name}"
        if name.startswith(("_", ".")) or not name.endswith(".parquet"):
            continue
        if not SHARD_NAME.fullmatch(name):
            other[where] = "is not a shard (hrsynth names its shards part-NNNNN.parquet)"
            continue
        ids = planned_ids(shard_number(name))
        problem = _foreign(fs, join(rows_folder(path), name), ids, run_id, SCHEMA)
        if problem:
            other[where] = problem
        else:
            own.append(where)
    return own, other


def _foreign(fs, where: str, ids: list[str] | None, run_id: str, schema) -> str | None:
    """Why the entry at `where` is not this run's shard of `ids` (None: beyond the
    plan), or None when it is."""
    if fs.get_file_info(where).type == pafs.FileType.Directory:
        return "is a folder, not a shard"
    if ids is None:
        return "lies beyond this run's plan (another run's shard?)"
    return _not_ours(fs, where, ids, run_id, schema)


def _not_ours(fs, where: str, ids: list[str], run_id: str, schema: pa.Schema) -> str | None:
    """Why the shard at `where` is not this run's shard of `ids`, or None when it is.
    Only hrsynth's footer (naming this run, or no run in older releases) proves a shard is
    this run's: a copy edited and saved by pandas holds the planned ids but not the
    footer, and is the user's."""
    try:
        with fs.open_input_file(where) as f:
            parquet = pq.ParquetFile(f)
            footer = parquet.schema_arrow.metadata or {}
            names = parquet.schema_arrow.names
            written = (
                parquet.read(columns=["id"]).column("id").to_pylist() if "id" in names else None
            )
    except (OSError, pa.ArrowInvalid, pa.ArrowTypeError):
        written, footer, names = None, {}, []  # unreadable: our writes are atomic
    if not {VERSION_KEY, WRITER_KEY} & set(footer):
        return (
            "was not written by this job (no hrsynth footer: another tool's file, or a copy "
            "edited and saved by one, is the user's)"
        )
    if written_as_recorded(fs, where) is False:
        return (
            "was changed after this job wrote it (its bytes differ from those recorded "
            "then): the edited file is the user's"
        )
    run = footer.get(RUN_KEY)  # older releases named no run
    if run is not None and run.decode(errors="replace") != run_id:
        job = footer.get(WRITER_KEY, b"an hrsynth job").decode(errors="replace")
        return (
            f"was written by another hrsynth run ({job}, run "
            f"{run.decode(errors='replace')[:40]}), not this one ({run_id})"
        )
    if written is None or not _holds(list(map(str, written)), ids):
        return (
            f"does not hold the documents this run plans for it ({len(ids)} ids "
            f"{ids[0] if ids else ''}…): a copy of another shard or of another run's"
        )
    return None


class Subset(list):
    """A shard's planned ids where a step may have left documents out (deidentify's
    --step): the shard holds these ids or some of them, none twice, none other."""


def _holds(written: list[str], ids: list[str]) -> bool:
    if isinstance(ids, Subset):
        return len(set(written)) == len(written) and set(written) <= set(ids)
    return sorted(written) == sorted(ids)


def shard_summary(table: pa.Table) -> dict:
    """What the manifest needs of a shard's rows: counts, tokens, entity types found."""
    from synth.contract import unmarked_values

    labels, errors = table["label"].to_pylist(), table["error"].to_pylist()
    found = defaultdict(Counter)  # label -> {"type_a|type_b": rows that found exactly those}
    unmarked = 0
    for label, text, entities, attributes in zip(
        labels, *(table[c].to_pylist() for c in ("text", "entities", "attributes"))
    ):
        found[label]["|".join(sorted({e["label"] for e in entities}))] += 1
        unmarked += unmarked_values(text, entities, attributes)
    return {
        "rows": table.num_rows,
        "rows_per_label": dict(Counter(labels)),
        # what the engine says it ran (its model_ref), which the manifest and card name
        "rows_per_model": dict(Counter(table["model"].to_pylist())),
        "rows_with_error": sum(e is not None for e in errors),
        "rows_flagged_no_variables": sum(NO_VARIABLES in (e or "") for e in errors),
        "rows_with_fallback": sum(bool(f) for f in table["fallback_slots"].to_pylist()),
        "tokens_generated": sum(table["generated_tokens"].to_pylist()),
        "tokens_prompt": sum(table["prompt_tokens"].to_pylist()),
        "entities_found": {k: dict(v) for k, v in found.items()},
        "planted_values_without_span": unmarked,
    }


def write_shard(folder, shard: int, rows: pa.Table | list[dict], extra: dict | None = None) -> dict:
    """Write one shard (contract rows, as a table or dicts) atomically, in id order, its
    summary (with `extra`, e.g. the audit's counts) in the footer: a reader never sees a
    partial file. Returns the summary."""
    table = rows if isinstance(rows, pa.Table) else to_table(rows)
    table = table.select(SCHEMA.names).sort_by("id")
    summary = shard_summary(table) | (extra or {})
    table = table.replace_schema_metadata(
        {SUMMARY_KEY: json.dumps(summary).encode(), VERSION_KEY: str(CONTRACT_VERSION).encode()}
        | writer_mark("generate", _run_of(table))
    )
    write_recorded(shard_path(folder, shard), table)
    return summary


def _run_of(table: pa.Table) -> str:
    """The run the rows belong to (every row of a shard carries it)."""
    runs = set(table["run_id"].to_pylist())
    if len(runs) > 1:
        raise ValueError(f"a shard holds the rows of one run, not {sorted(runs)[:3]}")
    return runs.pop() if runs else ""


def write_dp_part(folder, shard: int, samples) -> None:
    """One shard's DP-sampled rows (document id + schema attributes), written before the
    shard itself: a written shard always has its part."""
    table = pa.Table.from_pandas(samples, preserve_index=False)
    write_table(join(kept(folder, DP_PARTS), shard_name(shard)), table)


def join_dp_samples(folder, shards: list[int]) -> str:
    """The shards' DP rows streamed into one `_dp_samples.parquet` beside the shards,
    one row group per shard (memory: one shard's rows). They are DP output, so as public
    as the text; evaluate's privacy task compares them with the private table."""
    fs, path = filesystem(str(folder))

    def write(stream):
        writer = None
        for shard in shards:
            part = join(kept(path, DP_PARTS), shard_name(shard))
            if not exists(fs, part):
                raise ConfigError(
                    f"{DP_PARTS}/{shard_name(shard)} is missing from {folder}: delete "
                    f"{shard_name(shard)} there and rerun to write both again"
                )
            with fs.open_input_file(part) as f:
                table = pq.read_table(f)
            writer = writer or pq.ParquetWriter(stream, table.schema)
            writer.write_table(table.cast(writer.schema))
        if writer is not None:
            writer.close()

    write_atomic(kept(str(folder), DP_SAMPLES), write)
    return DP_SAMPLES


def iter_summaries(folder) -> Iterator[dict]:
    """Each shard's summary from its footer (a shard written before summaries existed is
    summarised from its rows), its number under `shard`, one at a time."""
    fs, path = filesystem(str(folder))
    for name in sorted(_shard_names(fs, path)):
        with fs.open_input_file(join(rows_folder(path), name)) as f:
            metadata = pq.read_schema(f).metadata or {}
            if SUMMARY_KEY in metadata:
                summary = json.loads(metadata[SUMMARY_KEY])
            else:
                summary = shard_summary(pq.read_table(f, schema=SCHEMA))
        yield summary | {"shard": shard_number(name)}


SUMMED = ("rows", "rows_with_error", "rows_flagged_no_variables", "tokens_generated")


def summed_summaries(summaries: Iterable[dict], merges: dict[str, Callable] | None = None) -> dict:
    """Shard summaries folded into one of the same shape, a shard at a time, so the
    manifest's memory does not grow with the number of shards. `merges`: {footer key:
    a function summing a list of its values} for keys only the caller knows; `dp_shards`
    lists the shards that have DP rows."""
    merges = merges or {}
    total = dict.fromkeys(SUMMED, 0) | {"planted_values_without_span": 0, "shards": 0}
    total["rows_with_fallback"] = 0
    total["tokens_prompt"], total["tokens_prefilled"] = 0, None
    total |= {"rows_per_label": Counter(), "entities_found": defaultdict(Counter), "dp_shards": []}
    total["rows_per_model"] = Counter()
    for summary in summaries:
        total["shards"] += 1
        for key in SUMMED:
            total[key] += summary[key]
        # must be 0 (docs/annotation.md): shards of older versions did not count it
        total["planted_values_without_span"] += summary.get("planted_values_without_span", 0)
        total["rows_with_fallback"] += summary.get("rows_with_fallback", 0)  # contract ≥ 3
        total["tokens_prompt"] += summary.get("tokens_prompt", 0)  # older shards: none
        prefilled = summary.get("tokens_prefilled")
        if prefilled is not None:  # engines that count it
            total["tokens_prefilled"] = (total["tokens_prefilled"] or 0) + prefilled
        total["rows_per_label"].update(summary["rows_per_label"])
        total["rows_per_model"].update(summary.get("rows_per_model", {}))  # older shards: none
        for label, sets in summary["entities_found"].items():
            total["entities_found"][label].update(sets)
        for key, merge in merges.items():
            total[key] = merge(
                [total[key], summary.get(key, {})] if key in total else [summary.get(key, {})]
            )
        if summary.get("dp_sample_rows"):
            total["dp_shards"].append(summary["shard"])
    return total


def coverage(summaries: list[dict], declared: dict[str, set[str]]) -> dict:
    """Entity coverage overall and per label: rows with ≥ 1 entity, variables found of
    the declared ones (plus any found beyond them)."""
    per_label = defaultdict(
        lambda: {"rows": 0, "rows_with_entity": 0, "variables": 0, "variables_found": 0}
    )
    for summary in summaries:
        for label, sets in summary["entities_found"].items():
            stats = per_label[label]
            for key, rows in sets.items():
                found = set(key.split("|")) if key else set()
                stats["rows"] += rows
                stats["rows_with_entity"] += rows * bool(found)
                stats["variables"] += rows * len(declared.get(label, set()) | found)
                stats["variables_found"] += rows * len(found)

    def shares(s):
        return {
            **s,
            "share_rows_with_entity": s["rows_with_entity"] / max(s["rows"], 1),
            "share_variables_found": s["variables_found"] / max(s["variables"], 1),
        }

    total = Counter()
    for s in per_label.values():
        total.update(s)
    return {
        "overall": shares(dict(total)),
        "per_label": {k: shares(v) for k, v in sorted(per_label.items())},
    }


def write_manifest(
    folder, run: dict, declared: dict[str, set[str]], extra: dict, total=None
) -> dict:
    """The run's manifest from the shards' footer summaries summed (summed_summaries; read
    here unless given) and `extra`: what the caller adds, such as the merged footer keys
    it alone knows how to merge."""
    total = summed_summaries(iter_summaries(folder)) if total is None else total
    manifest = {
        "contract_version": CONTRACT_VERSION,
        "run_id": run["run_id"],
        "config": run["config"],
        "seed": run["config"]["seed"],
        "rows": total["rows"],
        "rows_per_label": dict(sorted(total["rows_per_label"].items())),
        "rows_with_error": total["rows_with_error"],
        "rows_flagged_no_variables": total["rows_flagged_no_variables"],
        "rows_with_fallback": total["rows_with_fallback"],
        "planted_values_without_span": total["planted_values_without_span"],
        "entity_coverage": coverage([total], declared),
        "tokens_generated": total["tokens_generated"],
        # prompt tokens the rows asked for, and those the engine computed afresh (None:
        # it does not tell): the difference is what its KV cache kept between slots
        "tokens_prompt": total["tokens_prompt"],
        "tokens_prefilled": total["tokens_prefilled"],
        "shards": total["shards"],
        **extra,
    }
    write_json(kept(str(folder), MANIFEST), manifest)
    return manifest
