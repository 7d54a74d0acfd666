"""The Ray path of generation (shard numbers to an actor pool that plans and writes the
shards) on a real local Ray cluster with a scripted engine: what the actors write equals
the in-process rows of the same plan, row for row, to a path or a file:// URI. The real
model on Ray: test_generate_e2e.py."""

import os
import sys
from collections import Counter
from functools import partial

import cloudpickle
import pyarrow.parquet as pq
import pytest

from jobs.on_ray import slot_filling
from synth.config.generate import load_config
from synth.contract import SCHEMA, to_table
from synth.generation.params import params_from
from synth.generation.render import render
from synth.kinds import plan_documents, planner, shard_count
from tests.outputs import read_output, read_summaries
from tests.synth import test_golden


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
    cfg = cfg.updated(dp_model=None)
    docs, _ = plan_documents(cfg, "plumbing")
    shard_sizes = Counter(d.shard for d in docs)
    output = tmp_path.as_uri() if as_uri else str(tmp_path)
    reported, tallies = {}, []
    slot_filling.generate(
        planner(cfg, "plumbing"),
        range(shard_count(21, 5)),
        cfg,
        output,
        lambda shard, rows, tokens, failed: reported.__setitem__(shard, rows),
        make_engine=test_golden.ScriptedEngine,
        on_tally=lambda documents, tokens: tallies.append((documents, tokens)),
        poll_s=0.05,
    )
    assert reported == dict(shard_sizes)  # every shard once, complete
    assert tallies == sorted(tallies)  # the live count only grows
    files = sorted(p.name for p in tmp_path.glob("data/part-*.parquet"))
    assert files == [f"part-{s:05d}.parquet" for s in sorted(shard_sizes)]
    assert all(pq.read_schema(tmp_path / "data" / f).remove_metadata() == SCHEMA for f in files)
    in_process = []
    for shard in sorted(shard_sizes):  # one shard of 5 per call under batches of 8
        chunk = [d for d in docs if d.shard == shard]
        in_process += render(chunk, test_golden.ScriptedEngine(), params_from(), "plain", 9)
    assert read_output(output).to_pylist() == to_table(in_process).sort_by("id").to_pylist()
    summaries = read_summaries(output)
    assert sum(s["rows"] for s in summaries) == 21
    assert sum(s["tokens_generated"] for s in summaries) == sum(
        r["generated_tokens"] for r in in_process
    )
    assert tallies[-1] == (21, sum(r["generated_tokens"] for r in in_process))


class DyingOnce(test_golden.ScriptedEngine):
    """Kills its own process on its first call of the test (a marker file says whether
    that happened): what the OOM killer or a preempted node does to an actor."""

    def __init__(self, marker: str):
        super().__init__()
        self.marker = marker

    def continue_prompts(self, prompts, params, seed):
        if not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(1)
        return super().continue_prompts(prompts, params, seed)


def test_a_block_whose_actor_dies_is_retried_without_duplicates(ray_local, tmp_path, capsys):
    cloudpickle.register_pickle_by_value(sys.modules[test_golden.__name__])
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cfg = load_config(
        None,
        {
            "num_docs": 12,
            "seed": 3,
            "batch_size": 6,
            "shard_size": 3,
            "num_actors": 1,
            "reference_date": "2026-11-24",
            "labels": test_golden.LABELS,
        },
    )
    marker = str(tmp_path / "died")
    reported, landed, tallies = [], [], []
    slot_filling.generate(
        planner(cfg, "dying"),
        range(4),
        cfg,
        str(tmp_path / "out"),
        lambda shard, rows, tokens, failed: reported.append((shard, rows)),
        make_engine=partial(DyingOnce, marker),
        on_tally=lambda documents, tokens: tallies.append(documents),
        poll_s=0.05,
        on_landed=lambda shard, rows, tokens: landed.append((shard, rows)),
    )
    assert os.path.exists(marker)  # it did die
    assert sorted(reported) == [(0, 3), (1, 3), (2, 3), (3, 3)]
    # progress went on after the restart, said so once, and named each shard once
    assert sorted(landed) == sorted(reported) and tallies[-1] >= 12
    assert "a generation actor was restarted (1 so far" in capsys.readouterr().out
    ids = read_output(str(tmp_path / "out")).column("id").to_pylist()
    assert len(ids) == len(set(ids)) == 12


class Leaking(test_golden.ScriptedEngine):
    """Every slot writes an e-mail address nobody planted."""

    def continue_prompts(self, prompts, params, seed):
        _, generated, read = super().continue_prompts(prompts, params, seed)
        return [" Write to jane.doe@example.org today."] * len(prompts), generated, read


def test_the_audit_redacts_what_the_model_leaked_in_the_actors(ray_local, tmp_path):
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cloudpickle.register_pickle_by_value(sys.modules[test_golden.__name__])
    overrides = {"num_docs": 6, "seed": 3, "shard_size": 3, "reference_date": "2026-11-24"}
    overrides |= {"labels": test_golden.LABELS, "pii_audit": {"policy": "redact"}}
    cfg = load_config("configs/tickets.yaml", overrides).updated(dp_model=None)
    run = planner(cfg, "audit")
    slot_filling.generate(run, range(2), cfg, str(tmp_path), lambda *a: None, make_engine=Leaking)
    rows = read_output(str(tmp_path)).to_pylist()
    written = [r for r in rows if "[EMAIL]" in r["text"]]
    assert len(rows) == 6 and written and not any("jane.doe" in r["text"] for r in rows)
    for r in rows:  # the entities still point at their text
        assert all(r["text"][e["start"] : e["end"]] for e in r["entities"])
        assert all(
            e["value"] == r["text"][e["start"] : e["end"]]
            for e in r["entities"]
            if e["match"] == "exact"
        )
    counts = [s["pii_audit"] for s in read_summaries(str(tmp_path))]
    assert sum(c["rows_with_findings"] for c in counts) == len(written)
    assert sum(c["findings_per_type"].get("EMAIL", 0) for c in counts) == sum(
        r["text"].count("[EMAIL]") for r in rows
    )


class WaitsAfterTwoShards(test_golden.ScriptedEngine):
    """Holds every call once two shards are on disk, until the test opens the gate."""

    def __init__(self, output: str, gate: str):
        super().__init__()
        self.output, self.gate = output, gate

    def continue_prompts(self, prompts, params, seed):
        import glob
        import time

        while len(glob.glob(f"{self.output}/data/part-*.parquet")) >= 2 and not os.path.exists(
            self.gate
        ):
            time.sleep(0.05)
        return super().continue_prompts(prompts, params, seed)


def test_shard_lines_come_as_shards_land_not_when_the_task_ends(ray_local, tmp_path):
    """Ray Data hands a task's counts back together: the lines came at the end of the run."""
    import threading

    cloudpickle.register_pickle_by_value(sys.modules[test_golden.__name__])
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    overrides = {"num_docs": 12, "seed": 3, "batch_size": 3, "shard_size": 3}
    overrides |= {"num_actors": 1, "reference_date": "2026-11-24", "labels": test_golden.LABELS}
    cfg = load_config(None, overrides)
    out, gate = tmp_path / "out", tmp_path / "gate"
    landed, two_landed = [], threading.Event()

    def on_landed(shard, rows, tokens):
        landed.append(shard)
        if len(landed) >= 2:
            two_landed.set()

    run = threading.Thread(
        target=slot_filling.generate,
        args=(planner(cfg, "landing"), range(4), cfg, str(out), lambda *a: None),
        kwargs={
            "make_engine": partial(WaitsAfterTwoShards, str(out), str(gate)),
            "poll_s": 0.05,
            "on_landed": on_landed,
        },
    )
    run.start()
    try:
        assert two_landed.wait(120), landed  # while the rest of the task is held
        assert sorted(landed) == [0, 1]
    finally:
        gate.touch()
        run.join(180)
    assert sorted(landed) == [0, 1, 2, 3]
