"""Planning shard by shard: any shard planned alone equals the same shard of a whole-run
plan, labels stay balanced across shards, and the driver plans no document."""

from collections import Counter

import numpy as np
import pyarrow as pa
import pytest

from jobs import generate
from synth.config.generate import load_config
from synth.contract import SCHEMA
from synth.io.shards import write_recorded
from synth.kinds import plan_documents, planner, shard_count, shard_rows, sum_counts
from synth.kinds.tickets.taxonomy import load_taxonomy
from tests.kept import beside


def _cfg(dp_model, **overrides):
    settings = {"num_docs": 30, "shard_size": 7, "seed": 11, "reference_date": "2026-11-24"}
    return load_config("configs/tickets.yaml", settings | {"dp_model": str(dp_model)} | overrides)


def test_a_shard_planned_alone_equals_that_shard_of_the_whole_run(dp_model):
    cfg = _cfg(dp_model)
    docs, notes = plan_documents(cfg, "run")
    assert [d.index for d in docs] == list(range(30))
    assert [d.shard for d in docs] == [i // 7 for i in range(30)]
    alone = planner(cfg, "run").plan_shard(3)  # a fresh planner, as an actor has
    assert alone.docs == [d for d in docs if d.shard == 3]
    health = [d.id for d in docs if d.shard == 3 and d.label == "Life event_Health issues"]
    assert list(alone.dp_samples["id"]) == health
    assert len(notes["dp_samples"]) == sum(d.label == "Life event_Health issues" for d in docs)
    # the last shard is short, and a seed plans other documents
    assert shard_rows(30, 7, 4) == 2 and len(planner(cfg, "run").plan_shard(4).docs) == 2
    other = plan_documents(cfg.updated(seed=12), "run")[0]
    assert [d.persona for d in other] != [d.persona for d in docs]


def test_labels_are_balanced_over_the_run_not_only_within_shards(dp_model):
    cfg = _cfg(dp_model, num_docs=50, shard_size=3)  # shards of 3 cannot hold 8 labels
    counts = Counter(d.label for d in plan_documents(cfg, "run")[0])
    assert len(counts) == len(load_taxonomy())
    assert max(counts.values()) - min(counts.values()) <= 1


def test_the_shards_counts_sum_to_the_runs(dp_model):
    cfg = _cfg(dp_model)
    run = planner(cfg, "run")
    parts = [run.plan_shard(s).counts for s in range(shard_count(30, 7))]
    styles = sum_counts(parts)["writing"]["traits"]["prompt_style"]
    assert sum(styles.values()) == 30
    assert sum_counts([{"a": {"x": 1}, "b": 2}, {"a": {"x": 2, "y": 1}}]) == {
        "a": {"x": 3, "y": 1},
        "b": 2,
    }


def test_the_driver_plans_no_document_even_for_a_hundred_million(dp_model, tmp_path, monkeypatch):
    cfg = _cfg(dp_model, num_docs=10**8, shard_size=64)

    def refuse(self, shard):
        raise AssertionError("the driver planned a shard")

    from synth.kinds.tickets.plan import TicketPlanner

    monkeypatch.setattr(TicketPlanner, "plan_shard", refuse)
    # this run's shard 1 in an older contract's types: deleted and planned again
    ids = [f"big-{i:08d}" for i in range(64, 128)]
    older = pa.schema([f if f.name != "seed" else pa.field("seed", pa.int32()) for f in SCHEMA])
    mine = pa.table({n: pa.nulls(64, older.field(n).type) for n in older.names})
    mine = mine.set_column(older.names.index("id"), "id", pa.array(ids))
    footer = {b"hrsynth.writer": b"generate", b"hrsynth.run_id": b"big"}
    write_recorded(
        str(tmp_path / "data" / "part-00001.parquet"), mine.replace_schema_metadata(footer)
    )
    run, todo = generate._plan(cfg, {"run_id": "big"}, str(tmp_path))
    assert isinstance(run.planner, TicketPlanner) and todo.dtype == np.int64
    assert len(todo) == 1_562_500 and todo[0] == 0 and todo[-1] == 1_562_499
    assert not (tmp_path / "data" / "part-00001.parquet").exists()


def test_a_run_record_of_the_first_planner_is_refused_naming_the_planner(dp_model, tmp_path):
    from synth import ConfigError
    from synth.io.shards import RUN_FILE, open_output
    from synth.io.storage import write_json

    cfg = _cfg(dp_model)
    record = cfg.run_record()
    old = {k: v for k, v in record.items() if k != "planner_version"}
    write_json(
        str(beside(tmp_path, RUN_FILE)), {"fingerprint": "v1", "config": old, "run_id": "v1"}
    )
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "part-00000.parquet").write_bytes(b"x")
    with pytest.raises(ConfigError, match="planner_version"):
        open_output(str(tmp_path), record, cfg.fingerprint())
