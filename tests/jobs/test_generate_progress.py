"""What a long run shows while it works (jobs.progress), and how it stops when too many
rows fail. The live tally from real actors: tests/jobs/on_ray/test_slot_filling.py."""

import io

import pytest

from jobs import generate
from jobs.progress import Progress, seconds_left, shard_line, tally_line
from synth import RunFailed


def test_shard_line_reports_count_speed_and_time_left():
    left = seconds_left(256, 1600, done_at=230.0, now=230.0)  # 1,344 left at 256 per 230 s
    assert shard_line(3, 256, 1600, 29_900, elapsed=230.0, left_s=left) == (
        "shard 00003 written: 256/1600 documents (16%), 130 tokens/s, 230 s elapsed, ETA 00:20:07"
    )
    # a job that counts no tokens (deidentify) shows none
    assert shard_line(1, 3, 6, 0, elapsed=10.0, left_s=10.0) == (
        "shard 00001 written: 3/6 documents (50%), 10 s elapsed, ETA 00:00:10"
    )


def test_an_eta_past_a_day_keeps_its_hours():
    from jobs.progress import eta_text

    assert eta_text(25 * 3600 + 61.9) == "25:01:01"  # was 01:01:01: wrapped at 24 h


def test_the_eta_counts_down_between_batches_and_waits_for_the_first():
    assert seconds_left(256, 1600, done_at=230.0, now=260.0) == 1207.5 - 30
    assert seconds_left(256, 1600, done_at=230.0, now=5000.0) == 0.0  # late: not negative
    assert seconds_left(0, 1600, done_at=0.0, now=40.0) is None
    assert tally_line(0, 1600, 5_000, 40.0, left_s=None) == (
        "progress: 0/1600 documents generated (0%), 5000 tokens, 125 tokens/s, 40 s elapsed, "
        "ETA after the first document"
    )


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_log_gets_a_line_per_shard_and_one_at_least_every_every_s_between():
    clock, log = Clock(), io.StringIO()
    progress = Progress(1600, every_s=30, stream=log, clock=clock)
    for second in range(1, 200):  # the tally, read every second; no shard for 200 s
        clock.now = second
        progress.tally(second, second * 100)
    clock.now = 200
    progress.shard_written(0, 64, 19_000)
    clock.now = 215
    progress.tally(240, 24_000)  # 15 s after the shard line: nothing new
    lines = log.getvalue().splitlines()
    assert [line.split(" documents")[0] for line in lines] == [
        "progress: 30/1600",
        "progress: 60/1600",
        "progress: 90/1600",
        "progress: 120/1600",
        "progress: 150/1600",
        "progress: 180/1600",
        "shard 00000 written: 64/1600",
    ]
    assert "\r" not in log.getvalue()


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_one_bar_redrawn_and_the_shards_above_it():
    clock, tty = Clock(), Terminal()
    progress = Progress(100, every_s=30, stream=tty, clock=clock)
    clock.now = 10
    progress.tally(25, 1_000)
    progress.shard_written(0, 25, 1_000)
    progress.close()
    screen = tty.getvalue()
    bar = "[########......................] 25/100 documents  100 tokens/s  ETA 00:00:30"
    assert screen == (
        f"\r\033[K{bar}"
        "\r\033[Kshard 00000 written: 25/100 documents (25%), 100 tokens/s, 10 s elapsed, "
        f"ETA 00:00:30\n\r\033[K{bar}\n"
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


def test_before_the_first_document_the_eta_comes_from_the_tokens_planned():
    """Issue 81: 8 long CVs showed 'ETA after the first batch' for 17 minutes. With the
    tokens the plan expects, the ETA is the tokens left at the tokens/s so far."""
    from jobs.progress import tokens_left_s

    assert tokens_left_s(1_000, 5_000, 100.0) == 400.0  # 4,000 left at 10 tokens/s
    assert tokens_left_s(0, 5_000, 100.0) is None and tokens_left_s(10, None, 5.0) is None
    assert tokens_left_s(5_000, 5_000, 100.0) is None  # past the plan: no 00:00:00
    clock, log = Clock(), io.StringIO()
    progress = Progress(8, every_s=30, stream=log, clock=clock, planned_tokens=12_000)
    clock.now = 30
    progress.tally(0, 3_000)
    assert log.getvalue().splitlines() == [
        (
            "progress: 0/8 documents generated (0%), 3000 tokens, 100 tokens/s, 30 s elapsed, "
            "ETA 00:01:30 (from tokens)"
        )
    ]
    clock.now = 60
    progress.tally(2, 6_000)  # a document done: its pace, as before
    assert log.getvalue().splitlines()[-1].endswith("ETA 00:03:00")
    late = io.StringIO()
    past = Progress(8, every_s=30, stream=late, clock=clock, planned_tokens=900)
    clock.now += 30
    past.tally(0, 1_000)
    # more tokens than planned and no document done: no false 00:00:00
    assert late.getvalue().splitlines()[-1].endswith("ETA past the planned tokens")


def test_expected_tokens_follow_the_target_or_the_slots():
    from synth.generation.params import params_from
    from synth.generation.rollout import expected_tokens

    params = params_from("default", {"max_new_tokens": 24, "sentences_per_slot": 2})
    assert expected_tokens(["Hi there.", " And.", ""], None, params) == 48  # 2 slots x 24
    assert expected_tokens(["one two", ""], 102, params) == 140  # 100 words x 1.4
