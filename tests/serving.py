"""`hrsynth serve` with the embedded SmolLM2 on loopback, for the end-to-end tests of jobs
pointed at an OpenAI-compatible endpoint."""

import contextlib
import subprocess
import sys

from tests.conftest import ROOT


@contextlib.contextmanager
def served_smollm2(name: str = "smollm2", backend: str = "auto"):
    """Yields the server's base URL (port chosen by the system); stops it on exit."""
    server = subprocess.Popen(
        [sys.executable, "-m", "jobs.serve", "--port", "0", "--name", name]
        + ["--backend", backend],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert f"serving {name} at http://" in line, line
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)
