"""Issue 64: a run whose rows failed exits non-zero every time (a rerun finds its shards
whole and does not retry them, and says so), and the stop line counts what is on disk."""

from types import SimpleNamespace

import pytest

from jobs import generate
from synth import RunFailed
from synth.io.shards import write_shard
from tests.synth.kinds.test_card_and_loading import row


def test_an_output_with_too_many_failed_rows_fails_every_run():
    generate.check_output_failures({"rows": 8, "rows_with_error": 4}, 0.5)  # half: accepted
    with pytest.raises(RunFailed, match=r"^5 of the 8 rows written failed.*does not retry them"):
        generate.check_output_failures({"rows": 8, "rows_with_error": 5}, 0.5)


def test_the_stop_line_counts_the_shards_on_disk(tmp_path, monkeypatch):
    """Both shards landed, all 8 rows failed, but the tally stopped the run at the first:
    the line says 8 of 8 rows and 2 shards, not 4 of 4 and 1."""
    from jobs.on_ray import slot_filling

    for shard in (0, 1):
        rows = [
            row(i) | {"id": f"r-{i:08d}", "error": "slot 1 empty"}
            for i in range(4 * shard, 4 * shard + 4)
        ]
        write_shard(str(tmp_path), shard, rows)

    def pool(planner, todo, cfg, out, on_shard, **_):
        on_shard(0, 4, 10, 4)  # the first shard's tally stops the run

    monkeypatch.setattr(slot_filling, "generate", pool)
    cfg = SimpleNamespace(scale=SimpleNamespace(max_error_share=0.5))
    progress = SimpleNamespace(tally=None, poll_s=1, shard_written=None, close=lambda: None)
    with pytest.raises(RunFailed) as stopped:
        generate._generate(None, [0, 1], cfg, str(tmp_path), progress)
    assert str(stopped.value).startswith("8 of the 8 rows written failed")
    assert "the 2 shard(s) on disk are kept" in str(stopped.value)
