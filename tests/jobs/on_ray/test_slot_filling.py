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
from synth.docs.tickets.plan import plan_documents
from synth.generation.params import params_from
from synth.generation.render import render
from tests.synth import test_golden

pytestmark = pytest.mark.slow


@pytest.fixture
def ray_local():
    import ray

    # A cluster of its own, shut down after: later modules start theirs with ray.init.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


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
    jobs, _ = plan_documents(cfg, "plumbing")
    shard_sizes = Counter(j["shard"] for j in jobs)
    written = {}
    slot_filling.generate(
        jobs, cfg, shard_sizes, written.__setitem__, make_engine=test_golden.ScriptedEngine
    )
    assert sorted(written) == sorted(shard_sizes)  # every shard once, complete
    through_ray = sorted((r for rows in written.values() for r in rows), key=lambda r: r["id"])
    in_process = []
    for i in range(0, len(jobs), cfg.batch_size):
        in_process += render(
            jobs[i : i + cfg.batch_size],
            test_golden.ScriptedEngine(),
            params_from(),
            "plain",
            cfg.seed,
        )
    assert through_ray == sorted(in_process, key=lambda r: r["id"])
