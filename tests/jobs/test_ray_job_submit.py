"""`ray job submit --working-dir .` against a real Ray head started on loopback."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from synth.contract import check_row
from tests.conftest import ROOT

pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ray_head(tmp_path):
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "RAY_AUTH_MODE": "disabled",
           "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    port, dash = free_port(), free_port()
    subprocess.run([BIN / "ray", "start", "--head", "--port", str(port),
                    "--node-ip-address", "127.0.0.1", "--dashboard-host", "127.0.0.1",
                    "--dashboard-port", str(dash), "--num-cpus", "2", "--disable-usage-stats"],
                   env=env, check=True, capture_output=True, cwd=tmp_path)
    try:
        yield f"http://127.0.0.1:{dash}", env
    finally:
        subprocess.run([BIN / "ray", "stop", "--force"], env=env, capture_output=True, check=False)


def test_job_submit_runs_the_generate_job(ray_head, dp_model, tmp_path):
    address, env = ray_head
    out = tmp_path / "submitted"
    result = subprocess.run(
        [BIN / "ray", "job", "submit", "--address", address, "--working-dir", ".", "--",
         "python", "-m", "jobs.generate", "--config", "configs/tickets.yaml", "--num-docs", "8",
         "--batch-size", "8", "--output", str(out), "--dp-model", str(dp_model)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False,
    )
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-2000:])
    assert "succeeded" in result.stdout
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 8 and len({r["label"] for r in rows}) == 8
    assert all(check_row(r) == [] for r in rows)
    assert json.loads((out / "_manifest.json").read_text())["rows"] == 8
