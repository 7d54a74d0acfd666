"""Ray's C++ lines off the driver's console (issue 94, item 8: a newcomer's `make demo`
showed a core_worker.cc E line on a healthy run), in a process of its own: the filter
works on file descriptor 2, below Python's streams."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from jobs.on_ray.native_lines import is_native

ROOT = Path(__file__).resolve().parents[3]
CORE_WORKER = (
    "[2026-12-07 14:29:16,072 E 9911 9911] core_worker.cc:2465: Actor with class name: "
    "'MapWorker(MapBatches(SlotFiller))' has constructor arguments in the object store"
)


def test_only_rays_cpp_format_is_native():
    assert is_native(CORE_WORKER.encode())
    assert is_native(b"[2026-01-02 03:04:05,678 W 1 22] src/ray/raylet/node_manager.cc:9: x")
    for kept in (
        "error: run.num_docs must be >= 1, got 0",
        "[1/3] a step of our own",
        "core_worker.cc:2465: quoted in a line of ours",
        "\x1b[36m(MapWorker pid=1)\x1b[0m out of memory at a batch of 8",
    ):
        assert not is_native(kept.encode()), kept


def test_the_filter_drops_cpp_lines_and_keeps_every_other_line_to_the_last():
    script = textwrap.dedent(
        f"""
        import os, sys
        from jobs.on_ray.native_lines import drop_native_lines

        print("before", file=sys.stderr, flush=True)
        drop_native_lines()
        os.write(2, b{CORE_WORKER!r} + b"\\n")  # as Ray's C++ writes it
        os.write(2, b"bar 10%\\r")  # a redraw without a line end goes through
        print("kept", file=sys.stderr)
        os.write(2, b"[2026-12-07 14:29:17,000 W 9911 9912] raylet_client.cc:1: two")
        os.write(2, b" writes\\n")
        print("error: the last line", file=sys.stderr)
        sys.exit(3)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 3
    assert done.stderr == b"before\nbar 10%\rkept\nerror: the last line\n"


def test_a_verbose_job_keeps_them():
    """--verbose (HRSYNTH_RAY_LOGS) shows Ray's lines: connect() installs no filter."""
    script = textwrap.dedent(
        """
        import os
        from jobs.on_ray import native_lines
        from jobs.on_ray.session import verbose_console, ray_logs_wanted

        before = ray_logs_wanted()
        with verbose_console(True):
            assert ray_logs_wanted() and "RAY_DATA_LOGGING_CONFIG" not in os.environ
        assert ray_logs_wanted() == before and "RAY_DATA_LOGGING_CONFIG" in os.environ
        print("ok")
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "HRSYNTH_RAY_LOGS"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.stdout == "ok\n", done.stderr[-2000:]
