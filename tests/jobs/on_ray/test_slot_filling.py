"""The Ray path of generation (actor pool, Arrow blocks, shards written by the actors) on
a real local Ray cluster with a scripted engine: what the actors write equals the
in-process rows of the same plan, row for row, to a path or a file:// URI. The real
model on Ray: test_generate_e2e.py."""

import sys
from collections import Counter
from dataclasses import replace

import cloudpickle
import pyarrow.parquet as pq
import pytest

from jobs.on_ray import slot_filling
from synth.config.generate import load_config
from synth.contract import SCHEMA, to_table
from synth.docs import plan_documents
from synth.generation.params import params_from
from synth.generation.render import render, shard_blocks
from synth.io.shards import read_output, read_summaries
from tests.synth import test_golden

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("as_uri", [False, True], ids=["path", "file URI"])
def test_shards_written_by_the_actors_equal_the_in_process_rows(ray_local, tmp_path, as_uri):
    # Workers cannot import tests/: the engine travels by value.
    cloudpickle.register_pickle_by_value(sys.modules[test_golden.__name__])
    cfg = load_config(
        "configs/tickets.yaml",
        {
            "num_docs": 21,
            "seed": 9,
            "batch_size": 8,
            "shard_size": 5,
            "reference_date": "2026-11-24",
            "labels": test_golden.LABELS,
        },
    )
    cfg = replace(cfg, dp_model=None)
    docs, _ = plan_documents(cfg, "plumbing")
    shard_sizes = Counter(d.shard for d in docs)
    output = tmp_path.as_uri() if as_uri else str(tmp_path)
    reported = {}
    slot_filling.generate(
        docs,
        cfg,
        output,
        lambda shard, rows, tokens, failed: reported.__setitem__(shard, rows),
        make_engine=test_golden.ScriptedEngine,
    )
    assert reported == dict(shard_sizes)  # every shard once, complete
    files = sorted(p.name for p in tmp_path.glob("part-*.parquet"))
    assert files == [f"part-{s:05d}.parquet" for s in sorted(shard_sizes)]
    assert all(pq.read_schema(tmp_path / f).remove_metadata() == SCHEMA for f in files)
    in_process = []
    for block in shard_blocks(docs, cfg.batch_size):
        for i in range(0, len(block), cfg.batch_size):
            chunk = block[i : i + cfg.batch_size]
            in_process += render(chunk, test_golden.ScriptedEngine(), params_from(), "plain", 9)
    assert read_output(output).to_pylist() == to_table(in_process).sort_by("id").to_pylist()
    summaries = read_summaries(output)
    assert sum(s["rows"] for s in summaries) == 21
    assert sum(s["tokens_generated"] for s in summaries) == sum(
        r["generated_tokens"] for r in in_process
    )


def test_blocks_hold_whole_shards_in_order():
    cfg = load_config(None, {"num_docs": 23, "shard_size": 5, "reference_date": "2026-11-24"})
    docs, _ = plan_documents(replace(cfg, labels=test_golden.LABELS), "blocks")
    blocks = shard_blocks(docs, 12)
    assert [[d.index for d in b] for b in blocks] == [
        list(range(10)),
        list(range(10, 20)),
        list(range(20, 23)),
    ]
    assert [len(b) for b in shard_blocks(docs, 3)] == [5, 5, 5, 5, 3]  # a shard is never split
