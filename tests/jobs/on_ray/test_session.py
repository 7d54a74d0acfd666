"""A job joins RAY_ADDRESS or a live recorded head, and never waits on a dead one."""

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from jobs.on_ray.session import ray_address

ROOT = Path(__file__).resolve().parents[3]


def record(tmp: Path, address: str) -> None:
    (tmp / "ray").mkdir(exist_ok=True)
    (tmp / "ray" / "ray_current_cluster").write_text(address)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_address_order(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    assert ray_address() == "local"  # nothing recorded
    record(tmp_path, f"127.0.0.1:{closed_port()}")
    assert ray_address() == "local"
    assert "nothing answers" in capsys.readouterr().err
    with socket.socket() as live:
        live.bind(("127.0.0.1", 0))
        live.listen()
        address = f"127.0.0.1:{live.getsockname()[1]}"
        record(tmp_path, address)
        assert ray_address() == address
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    assert ray_address() == "10.0.0.5:6379"


def test_a_dead_recorded_head_does_not_stop_a_job_from_starting_ray():
    # Short folder: Ray's socket paths under RAY_TMPDIR must stay under 108 characters.
    tmp = Path(tempfile.mkdtemp(prefix="rs", dir="/tmp"))
    record(tmp, "192.0.2.1:6379")  # TEST-NET: connecting there would hang, not fail
    env = {**os.environ, "RAY_TMPDIR": str(tmp)}
    env.pop("RAY_ADDRESS", None)
    code = (
        "from jobs.on_ray.session import connect; import ray; connect(); "
        "print('cpus', ray.cluster_resources()['CPU']); ray.shutdown()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        cwd=ROOT,
        env=env,
        timeout=300,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "cpus" in done.stdout and "nothing answers at 192.0.2.1:6379" in done.stderr
