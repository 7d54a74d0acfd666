"""`ray job submit` of the generate RayJob's entrypoint against a real Ray head on loopback.

The entrypoint and runtime environment come from cluster/kuberay/rayjob-generate.yaml, run
as written except for what differs on this machine: the document count, the output and
model paths, one CPU actor. The head is started with `--block` in its own process group
and stopped by signalling that group, so other Ray clusters on the machine live on.
"""

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from synth.kinds import check_row
from tests.conftest import ROOT
from tests.kept import beside

BIN = Path(sys.executable).parent
# flag → value on this machine (paths, size, hardware); every other word stays as written
HERE = {"--num-docs": "8", "--batch-size": "8", "--num-actors": "1", "--device": "cpu"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float = 90) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(1)
    raise TimeoutError(f"Ray head did not answer at {url}")


@pytest.fixture
def ray_head(tmp_path):
    env = {
        **os.environ,
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "RAY_AUTH_MODE": "disabled",
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    env.pop("RAY_ADDRESS", None)
    pointer = Path(os.environ.get("RAY_TMPDIR", "/tmp"), "ray", "ray_current_cluster")
    previous = pointer.read_text() if pointer.exists() else None
    port, dash, agent = free_port(), free_port(), free_port()
    head = subprocess.Popen(  # own agent port too: the default clashes with other clusters
        [
            BIN / "ray",
            "start",
            "--head",
            "--block",
            "--port",
            str(port),
            "--node-ip-address",
            "127.0.0.1",
            "--dashboard-host",
            "127.0.0.1",
            "--dashboard-port",
            str(dash),
            "--dashboard-agent-listen-port",
            str(agent),
            "--num-cpus",
            "2",
            "--disable-usage-stats",
        ],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(f"http://127.0.0.1:{dash}/api/version")
        yield f"http://127.0.0.1:{dash}", env
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
        # A killed head leaves its address there, and the next ray.init() on this machine
        # would try to join it: put back what was there before.
        if pointer.exists() and pointer.read_text().strip().endswith(f":{port}"):
            if previous is None:
                pointer.unlink()
            else:
                pointer.write_text(previous)


def manifest_job() -> tuple[list[str], dict]:
    job = yaml.safe_load((ROOT / "cluster" / "kuberay" / "rayjob-generate.yaml").read_text())
    return shlex.split(job["spec"]["entrypoint"]), yaml.safe_load(job["spec"]["runtimeEnvYAML"])


def adapted(words: list[str], overrides: dict) -> list[str]:
    out = list(words)
    for flag, value in overrides.items():
        assert flag in out, f"the manifest's entrypoint has no {flag}"
        out[out.index(flag) + 1] = value
    return out


def test_job_submit_runs_the_generate_rayjob_entrypoint(ray_head, dp_model, tmp_path):
    address, env = ray_head
    out = tmp_path / "submitted"
    words, runtime = manifest_job()
    command = adapted(words, {**HERE, "--output": str(out), "--dp-model": str(dp_model)})
    runtime_env = {**runtime, "working_dir": "."}  # the image's project folder, here
    for _ in range(10):  # the head's job agent registers a few seconds after its dashboard
        result = subprocess.run(
            [
                BIN / "ray",
                "job",
                "submit",
                "--address",
                address,
                "--runtime-env-json",
                json.dumps(runtime_env),
                "--",
                *command,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        if "No available agent" not in result.stderr:
            break
        time.sleep(3)
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-2000:])
    assert "succeeded" in result.stdout
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 8 and len({r["label"] for r in rows}) == 8
    assert all(check_row(r) == [] for r in rows)
    assert json.loads(beside(out, "_manifest.json").read_text())["rows"] == 8
