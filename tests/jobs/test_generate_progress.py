"""The progress line a long run prints per finished shard."""

from jobs import generate


def test_progress_line_reports_count_speed_and_time_left(monkeypatch):
    monkeypatch.setattr(generate.time, "time", lambda: 1000.0)
    line = generate.progress_line(3, 256, 1600, 29_900, started=770.0)
    assert line == (
        "shard 00003 written: 256/1600 documents (16%), 130 tokens/s, 230 s elapsed, "
        "ETA 00:20:07"  # 1,344 documents left at 256 per 230 s
    )
