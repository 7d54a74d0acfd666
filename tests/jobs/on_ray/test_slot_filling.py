"""The Ray path of generation (actor pool, Arrow blocks, shard assembly) on a real local
Ray cluster with a scripted engine: its rows equal the in-process rows of the same plan,
row for row. The real model on Ray: test_generate_e2e.py."""

import sys
from collections import Counter
from dataclasses import replace

import cloudpickle
import pytest

from jobs.on_ray import slot_filling
from synth.config.generate import load_config
from synth.contract import SCHEMA, to_table
from synth.docs import plan_documents
from synth.generation.params import params_from
from synth.generation.render import render
from tests.synth import test_golden

pytestmark = pytest.mark.slow


def test_rows_through_ray_equal_the_in_process_rows(ray_local):
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
    written = {}
    slot_filling.generate(
        docs, cfg, shard_sizes, written.__setitem__, make_engine=test_golden.ScriptedEngine
    )
    assert sorted(written) == sorted(shard_sizes)  # every shard once, complete
    assert all(t.schema == SCHEMA for t in written.values())  # contract columns, typed
    through_ray = sorted(
        (r for table in written.values() for r in table.to_pylist()), key=lambda r: r["id"]
    )
    in_process = []
    for i in range(0, len(docs), cfg.batch_size):
        in_process += render(
            docs[i : i + cfg.batch_size],
            test_golden.ScriptedEngine(),
            params_from(),
            "plain",
            cfg.seed,
        )
    assert through_ray == sorted(to_table(in_process).to_pylist(), key=lambda r: r["id"])
