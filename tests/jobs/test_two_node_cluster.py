"""The fault a cluster refresh meets, on a real Ray cluster of two nodes on this machine:
a head with no CPUs (as a KubeRay head is configured) and a worker node that runs every
actor. The worker node's raylet is killed in the middle of a generate run and of a
deidentify run; a new worker node joins; the rerun ends with every shard once and the
same rows as an uninterrupted run on the same cluster.

Each node has its own ports (as tests/jobs/test_ray_job_submit.py starts its head) and
its own process group, stopped by signalling that group, so other Ray clusters on the
machine live on. Bounded: every wait has a deadline.
"""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from faker import Faker

from tests.conftest import ROOT
from tests.jobs.test_ray_job_submit import BIN, free_port

RUN_S = 420  # the most one job may take here


def node_ports() -> list[str]:
    """Every port a node listens on, free ones, so two nodes share none."""
    low = free_port()
    flags = ["--node-manager-port", "--object-manager-port", "--metrics-export-port"]
    flags += ["--dashboard-agent-listen-port", "--dashboard-agent-grpc-port"]
    flags += ["--runtime-env-agent-port"]
    words = []
    for flag in flags:
        words += [flag, str(free_port())]
    return words + [
        "--min-worker-port",
        str(low % 20000 + 20000),
        "--max-worker-port",
        str(low % 20000 + 20199),
    ]


class NodeExited(RuntimeError):
    """A `ray start --block` process ended before its node joined (a port taken between
    choosing it and binding it, a head that could not start its GCS)."""


class TwoNodes:
    """A head (0 CPUs) and a worker node (2 CPUs); the worker can be killed and replaced.
    Each node's console goes to a file in the test's folder, so a start that fails says
    why; a node whose process ends before it joins is started again on fresh ports."""

    TRIES = 3

    def __init__(self, tmp: Path):
        self.env = {
            **os.environ,
            "PATH": f"{BIN}:{os.environ['PATH']}",
            "RAY_AUTH_MODE": "disabled",
            "RAY_USAGE_STATS_ENABLED": "0",
        }
        self.env.pop("RAY_ADDRESS", None)
        self.tmp, self.head, self.worker = tmp, None, None
        self.consoles: dict[int, Path] = {}  # pid -> the file its console went to
        for attempt in range(self.TRIES):
            try:
                self.start_head()
                self.start_worker(seconds=150)
                return
            except (NodeExited, TimeoutError):
                self.stop()
                if attempt == self.TRIES - 1:
                    raise

    def start_head(self) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        head = ["--head", "--port", str(self.port), "--num-cpus", "0"]
        head += ["--include-dashboard", "false"]
        self.head = self._start(head + ["--ray-client-server-port", str(free_port())])

    def _start(self, words: list[str]) -> subprocess.Popen:
        path = self.tmp / f"node-{len(self.consoles)}.log"
        with open(path, "w") as console:
            node = subprocess.Popen(
                [
                    BIN / "ray",
                    "start",
                    "--block",
                    "--node-ip-address",
                    "127.0.0.1",
                    "--object-store-memory",
                    str(100 * 2**20),
                    "--disable-usage-stats",
                    *node_ports(),
                    *words,
                ],
                env=self.env,
                cwd=self.tmp,
                stdout=console,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.consoles[node.pid] = path
        return node

    def console(self, node: subprocess.Popen | None) -> str:
        """The last lines `ray start` printed for `node`."""
        if node is None:
            return "(not started)"
        return self.consoles[node.pid].read_text(errors="replace")[-2000:]

    def start_worker(self, seconds: float = 240) -> None:
        """Start a worker node and wait until it shows its CPUs; a worker whose process
        ends first is started again on fresh ports, up to TRIES times."""
        for attempt in range(self.TRIES):
            if self.worker is not None:  # a worker that exited may leave its raylet behind
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker = self._start(["--address", self.address, "--num-cpus", "2"])
            try:
                self.wait_for_cpus(2, seconds)
                return
            except NodeExited:
                if self.head.poll() is not None or attempt == self.TRIES - 1:
                    raise

    def kill_worker(self) -> None:
        """SIGKILL the worker node's process group: its raylet and every actor on it."""
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait(timeout=30)

    def check_alive(self) -> None:
        for name, node in (("head", self.head), ("worker", self.worker)):
            if node.poll() is not None:
                raise NodeExited(
                    f"the {name} node's `ray start` exited with {node.returncode}:\n"
                    + self.console(node)
                )

    def wait_for_cpus(self, cpus: int, seconds: float = 240) -> None:
        """Probe in a fresh process until the cluster shows `cpus`. A probe that hangs
        (a driver can wait on a head whose GCS is still starting on a busy machine:
        CI once saw one connect and never answer) is killed and the next one tried; a
        node whose process has ended is reported at once (NodeExited)."""
        probe = (
            "import ray, sys; ray.init(address=sys.argv[1], log_to_driver=False); "
            "print(int(ray.available_resources().get('CPU', 0)))"
        )
        deadline, answer = time.time() + seconds, None
        while time.time() < deadline:
            self.check_alive()
            try:
                answer = subprocess.run(
                    [sys.executable, "-c", probe, self.address],
                    check=False,
                    env=self.env,
                    capture_output=True,
                    text=True,
                    timeout=45,
                )
            except subprocess.TimeoutExpired:
                continue
            if answer.stdout.strip() == str(cpus):
                return
            time.sleep(1)
        said = "" if answer is None else (answer.stdout + answer.stderr)[-1500:]
        raise TimeoutError(
            f"the cluster at {self.address} never showed {cpus} CPUs; the last probe "
            f"said:\n{said}\nthe head's console:\n{self.console(self.head)}\n"
            f"the worker's console:\n{self.console(self.worker)}"
        )

    def job(self, module: str, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", module, *args],
            env={**self.env, "RAY_ADDRESS": self.address},
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

    def stop(self) -> None:
        """Stop both nodes' process groups, also when `ray start` itself has exited (its
        GCS or raylet may live on in the group)."""
        for node in (self.worker, self.head):
            if node is None:
                continue
            try:
                os.killpg(node.pid, signal.SIGTERM)
                node.wait(timeout=10)
            except ProcessLookupError:
                continue
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)


@pytest.fixture
def cluster(tmp_path):
    pointer = Path(os.environ.get("RAY_TMPDIR", "/tmp"), "ray", "ray_current_cluster")
    previous = pointer.read_text() if pointer.exists() else None
    nodes = TwoNodes(tmp_path)
    try:
        yield nodes
    finally:
        nodes.stop()
        # the head wrote its address there: the next ray.init() here must not join it
        if pointer.exists() and pointer.read_text().strip().endswith(f":{nodes.port}"):
            if previous is None:
                pointer.unlink()
            else:
                pointer.write_text(previous)


def finished(job: subprocess.Popen, seconds: float = RUN_S) -> str:
    try:
        out, _ = job.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        out, _ = job.communicate()
        raise AssertionError(f"the job ran past {seconds} s:\n{out[-3000:]}") from None
    assert job.returncode == 0, out[-3000:]
    return out


def killed_midway(cluster: TwoNodes, job: subprocess.Popen, out: Path, shards: int) -> int:
    """Kill the worker node once `shards` shards are on disk, start a new one, and let the
    run finish or, when it does not go on by itself within a deadline, kill it too.
    Returns the shards on disk when the node was killed."""
    deadline = time.time() + RUN_S
    while len(list(out.glob("data/part-*.parquet"))) < shards:
        assert job.poll() is None, job.communicate()[0][-3000:]
        assert time.time() < deadline, "no shard was written in time"
        time.sleep(0.2)
    cluster.kill_worker()
    on_disk = len(list(out.glob("data/part-*.parquet")))
    cluster.start_worker()
    try:
        console, _ = job.communicate(timeout=RUN_S)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)  # its lock is then stale: the rerun takes it
        job.communicate()
        return on_disk
    if job.returncode != 0:  # it stopped by itself: its last word says what to do
        said = [line for line in console.splitlines() if line.startswith("error: ")]
        assert said and "lost a node or worker" in said[-1], console[-3000:]
        assert "are kept" in said[-1] and "rerun the same command" in said[-1]
    return on_disk


def rows_by_id(folder: Path) -> list[dict]:
    table = pq.ParquetDataset(sorted(folder.glob("data/part-*.parquet"))).read()
    return table.sort_by("id").to_pylist()


def reference_and_resumed(cluster, module: str, args: list[str], tmp: Path, kill_after: int):
    """An uninterrupted run, then one whose worker node is killed once `kill_after` shards
    are written and that is rerun: (the rerun's console, reference rows, resumed rows)."""
    reference, interrupted = tmp / "reference", tmp / "interrupted"
    finished(cluster.job(module, *args, "--output", str(reference)))
    job = cluster.job(module, *args, "--output", str(interrupted))
    on_disk = killed_midway(cluster, job, interrupted, shards=kill_after)
    out = finished(cluster.job(module, *args, "--output", str(interrupted)))
    return out, on_disk, rows_by_id(reference), rows_by_id(interrupted)


def test_generate_survives_losing_its_worker_node(cluster, dp_model, tmp_path):
    args = ["--num-docs", "12", "--shard-size", "2", "--batch-size", "2", "--seed", "5"]
    args += ["--num-actors", "1", "--dp-model", str(dp_model), "--backend", "ct2"]
    out, on_disk, expected, rows = reference_and_resumed(
        cluster, "jobs.generate", args, tmp_path, kill_after=2
    )
    assert on_disk < 6 and "12 documents in 6 shards" in out  # killed in the middle
    assert [r["id"] for r in rows] == sorted({r["id"] for r in rows})  # each once
    assert len(rows) == 12
    assert [(r["id"], r["text"]) for r in rows] == [(r["id"], r["text"]) for r in expected]


def test_deidentify_survives_losing_its_worker_node(cluster, tmp_path):
    fake = Faker("en_GB")
    fake.seed_instance(44)
    docs = [
        {
            "id": f"d{i}",
            "text": f"Hi, I am {fake.name()} ({fake.email()}). I moved to "
            f"{fake.city()} on {fake.date()} and need my payslip sent there. Thanks",
        }
        for i in range(600)
    ]
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text("\n".join(json.dumps(d) for d in docs))
    args = ["--input", str(corpus), "--shard-size", "20", "--detectors", "presidio"]
    args += ["--method", "surrogate", "--num-actors", "1", "--keep-ids"]
    out, on_disk, expected, rows = reference_and_resumed(
        cluster, "jobs.deidentify", args, tmp_path, kill_after=3
    )
    assert on_disk < 30 and "600 documents in 30 shards" in out  # killed in the middle
    assert len(rows) == 600 and len({r["id"] for r in rows}) == 600
    assert rows == expected


def test_a_node_lost_for_good_ends_in_one_line_without_ray_tracebacks(cluster, dp_model, tmp_path):
    """Issue 72: the right last line, but three Ray Data tracebacks above it. The worker
    node is killed and none replaces it: the job ends with its one line, the shards
    written kept, and no traceback on the console (Ray's retry notices may stay)."""
    out = tmp_path / "out"
    args = ["--num-docs", "12", "--shard-size", "2", "--batch-size", "2", "--seed", "5"]
    args += ["--num-actors", "1", "--dp-model", str(dp_model), "--backend", "ct2"]
    job = cluster.job("jobs.generate", *args, "--output", str(out))
    deadline = time.time() + RUN_S
    while len(list(out.glob("data/part-*.parquet"))) < 2:
        assert job.poll() is None, job.communicate()[0][-3000:]
        assert time.time() < deadline, "no shard was written in time"
        time.sleep(0.2)
    cluster.kill_worker()
    try:
        console, _ = job.communicate(timeout=RUN_S)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        raise AssertionError("the job did not end once its node was lost") from None
    assert job.returncode == 1, console[-3000:]
    said = [line for line in console.splitlines() if line.startswith("error: ")]
    assert len(said) == 1 and "lost a node or worker" in said[0], console[-3000:]
    assert "Traceback" not in console, console[-3000:]
    assert len(list(out.glob("data/part-*.parquet"))) >= 2
