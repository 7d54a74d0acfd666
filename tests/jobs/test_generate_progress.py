"""The progress line a long run prints per finished shard."""

import pytest

from jobs import generate
from synth import RunFailed


def test_progress_line_reports_count_speed_and_time_left(monkeypatch):
    monkeypatch.setattr(generate.time, "time", lambda: 1000.0)
    line = generate.progress_line(3, 256, 1600, 29_900, started=770.0)
    assert line == (
        "shard 00003 written: 256/1600 documents (16%), 130 tokens/s, 230 s elapsed, "
        "ETA 00:20:07"  # 1,344 documents left at 256 per 230 s
    )


def test_a_run_stops_with_one_line_once_too_many_rows_failed():
    generate.check_failures(32, 64, 0.5, shards=1)  # half: still going
    with pytest.raises(RunFailed, match=r"^33 of the 64 rows generated so far failed \(more"):
        generate.check_failures(33, 64, 0.5, shards=1)


def test_a_failed_run_exits_1_with_one_line(monkeypatch, capsys):
    def run(options):
        generate.check_failures(3, 4, 0.5, shards=1)

    monkeypatch.setattr(generate, "run", run)
    assert generate.main(["--output", "o"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: 3 of the 4 rows") and "\n" not in err
