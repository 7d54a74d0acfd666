"""Run history for scheduled evaluations: one Parquet row per metric per run.

A scheduled run adds its headline metrics to a history (`--history PATH`, local or any
pyarrow filesystem URI) and compares them with the previous run of the same
configuration: same tasks' settings and test set, whatever the training data. A metric
that fell by more than the tolerance is flagged.

The history is a folder with one Parquet file per run (written atomically, under a name
no other run can take), read back as one table (pandas, Spark, DuckDB and Ray read the
folder as one dataset too). Runs never rewrite each other's rows, so a daily refresh and
a weekly evaluation that finish together both keep theirs; a single rewritten file lost
one of them.
"""

import hashlib
import json
import time
import uuid

import pyarrow as pa
import pyarrow.parquet as pq

from synth import ConfigError
from synth.io.storage import filesystem, join, list_names, write_table

# Settings that define "the same configuration"; training data and output folder vary.
CONFIG_KEYS = ("tasks", "base_model", "num_workers", "epochs", "batch_size", "lr", "seed")
SCHEMA = pa.schema(
    [
        ("run_at", pa.float64()),
        ("config_key", pa.string()),
        ("test_sha256", pa.string()),
        ("train_run_id", pa.string()),
        ("task", pa.string()),
        ("metric", pa.string()),
        ("value", pa.float64()),
        ("higher_is_better", pa.bool_()),
    ]
)


def config_key(config: dict, test_sha256: str) -> str:
    settings = {k: config.get(k) for k in CONFIG_KEYS} | {"test": test_sha256}
    return hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[
        :16
    ]


def headline(result: dict) -> list[tuple[str, str, float, bool]]:
    """(task, metric, value, higher is better) for the numbers worth tracking: what each
    task's summary names (eval.summaries)."""
    return [
        (task, metric, float(value), higher)
        for task, s in result["tasks"].items()
        for metric, value, higher in s.get("summary", {}).get("headline", [])
        if value is not None
    ]


def read_history(path: str) -> pa.Table:
    """Every run's rows, in run order (empty when the folder does not exist yet)."""
    import pyarrow.fs as pafs

    fs, where = filesystem(path)
    if fs.get_file_info(where).type == pafs.FileType.File:
        raise ConfigError(
            f"--history {path} is one file (hrsynth before 0.2 rewrote it per run): move it "
            "into a folder of that name (mv H H.old && mkdir H && mv H.old H/old.parquet)"
        )
    tables = []
    for name in list_names(fs, where):
        if name.endswith(".parquet"):
            with fs.open_input_file(join(where, name)) as f:
                tables.append(pq.read_table(f).cast(SCHEMA))
    if not tables:
        return SCHEMA.empty_table()
    return pa.concat_tables(tables).sort_by("run_at")


def compare(previous: pa.Table, key: str, rows: list[tuple], tolerance: float) -> dict:
    """Each metric against the latest earlier run with the same key; flag drops > tolerance."""
    earlier = [r for r in previous.to_pylist() if r["config_key"] == key]
    if not earlier:
        return {"previous_run_at": None, "rows": []}
    last = max(r["run_at"] for r in earlier)
    before = {(r["task"], r["metric"]): r["value"] for r in earlier if r["run_at"] == last}
    out = []
    for task, metric, value, higher in rows:
        old = before.get((task, metric))
        if old is None:
            continue
        worse_by = (old - value) if higher else (value - old)
        out.append(
            {
                "task": task,
                "metric": metric,
                "previous": old,
                "now": value,
                "change": value - old,
                "flagged": worse_by > tolerance,
            }
        )
    return {"previous_run_at": last, "rows": out}


def append_and_compare(path: str, result: dict, tolerance: float) -> dict:
    key = config_key(result["config"], result["test"]["sha256"])
    rows = headline(result)
    previous = read_history(path)
    comparison = compare(previous, key, rows, tolerance) | {
        "config_key": key,
        "tolerance": tolerance,
    }
    now = time.time()
    new = pa.Table.from_pylist(
        [
            {
                "run_at": now,
                "config_key": key,
                "test_sha256": result["test"]["sha256"],
                "train_run_id": result["train"]["run_id"],
                "task": t,
                "metric": m,
                "value": v,
                "higher_is_better": h,
            }
            for t, m, v, h in rows
        ],
        schema=SCHEMA,
    )
    # a name no other run takes: nanoseconds and a random suffix
    write_table(join(path, f"run-{time.time_ns()}-{uuid.uuid4().hex[:8]}.parquet"), new)
    return comparison
