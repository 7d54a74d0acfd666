"""The output folder: Parquet shards written atomically, a run file, and the manifest.

`_run.json` records the resolved config and its fingerprint when a run starts. A rerun
into the same folder with the same fingerprint skips the shards already written, so an
interrupted job resumes without duplicates; a different config is refused.
"""

import json
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from synth import ConfigError
from synth.contract import NO_VARIABLES, SCHEMA, to_table
from synth.io.storage import write_json, write_table

RUN_FILE, MANIFEST, DP_SAMPLES = "_run.json", "_manifest.json", "_dp_samples.parquet"


def shard_path(folder: Path, shard: int) -> Path:
    return Path(folder) / f"part-{shard:05d}.parquet"


def open_output(folder: Path, config: dict, fingerprint: str) -> dict:
    """Create or reopen an output folder; refuse one made with another config."""
    folder = _writable_folder(Path(folder))
    run_file = folder / RUN_FILE
    # A run that wrote no shard has nothing to protect: a corrected rerun takes the folder.
    if run_file.exists() and any(folder.glob("part-*.parquet")):
        previous = json.loads(run_file.read_text())
        if previous["fingerprint"] != fingerprint:
            changed = sorted(k for k in config if previous["config"].get(k) != config[k])
            raise ConfigError(
                f"output {folder} holds a run made with a different config (differs in: "
                f"{', '.join(changed) or 'model or data files'}); use a new --output or "
                "rerun with the same config to resume"
            )
        previous["resumed"] = previous.get("resumed", 0) + 1
        write_json(run_file, previous)
        return previous
    run = {
        "fingerprint": fingerprint,
        "run_id": fingerprint[:12],
        "config": config,
        "started": time.time(),
        "resumed": 0,
    }
    write_json(run_file, run)
    return run


def _writable_folder(folder: Path) -> Path:
    """`folder`, created; an --output that is a file or cannot be written is named."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(
            f"--output {folder} is a file; give a folder (shards and a "
            "manifest are written into it)"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as e:
        raise ConfigError(
            f"--output {folder} cannot be written ({e.strerror}); choose a folder you can write to"
        ) from None
    return folder


def finished_shards(folder: Path, expected_rows: dict[int, int]) -> set[int]:
    """Shards whose file exists and holds exactly the planned number of rows."""
    done = set()
    for shard, rows in expected_rows.items():
        path = shard_path(folder, shard)
        if path.exists():
            try:
                if pq.read_metadata(path).num_rows == rows:
                    done.add(shard)
                else:
                    path.unlink()  # planned differently: regenerate, never mix
            except (OSError, pa.ArrowInvalid):
                path.unlink()  # unreadable (not written by us): regenerate it
    return done


def write_shard(folder: Path, shard: int, rows: pa.Table | list[dict]) -> None:
    """Write one shard (contract rows, as a table or dicts) atomically, in id order: a
    reader never sees a partial file."""
    table = rows if isinstance(rows, pa.Table) else to_table(rows)
    write_table(shard_path(folder, shard), table.select(SCHEMA.names).sort_by("id"))


def write_dp_samples(folder: Path, samples) -> str:
    """The DP network's sampled rows (document id + schema attributes) beside the shards.

    They are DP output, so as public as the text; evaluate's privacy task compares them
    with the private table. Rewritten whole on every run: sampling is deterministic."""
    path = Path(folder) / DP_SAMPLES
    write_table(path, pa.Table.from_pandas(samples, preserve_index=False))
    return path.name


def read_output(folder: Path) -> pa.Table:
    files = sorted(Path(folder).glob("part-*.parquet"))
    return (
        pa.concat_tables([pq.read_table(f, schema=SCHEMA) for f in files])
        if files
        else SCHEMA.empty_table()
    )


def coverage(table: pa.Table, declared: dict[str, set[str]]) -> dict:
    """Entity coverage overall and per label: rows with ≥ 1 entity, variables found."""
    per_label = defaultdict(
        lambda: {"rows": 0, "rows_with_entity": 0, "variables": 0, "variables_found": 0}
    )
    for label, entities in zip(table["label"].to_pylist(), table["entities"].to_pylist()):
        stats = per_label[label]
        found = {e["label"] for e in entities}
        wanted = declared.get(label, set()) | found
        stats["rows"] += 1
        stats["rows_with_entity"] += bool(entities)
        stats["variables"] += len(wanted)
        stats["variables_found"] += len(found)

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


def write_manifest(folder: Path, run: dict, declared: dict[str, set[str]], extra: dict) -> dict:
    table = read_output(folder)
    tokens = sum(table["generated_tokens"].to_pylist())
    manifest = {
        "run_id": run["run_id"],
        "config": run["config"],
        "seed": run["config"]["seed"],
        "rows": table.num_rows,
        "rows_per_label": dict(sorted(Counter(table["label"].to_pylist()).items())),
        "rows_with_error": sum(e is not None for e in table["error"].to_pylist()),
        "rows_flagged_no_variables": sum(
            NO_VARIABLES in (e or "") for e in table["error"].to_pylist()
        ),
        "entity_coverage": coverage(table, declared),
        "tokens_generated": tokens,
        "shards": len(list(Path(folder).glob("part-*.parquet"))),
        **extra,
    }
    write_json(Path(folder) / MANIFEST, manifest)
    return manifest
