"""The deidentify driver's memory as its input grows: the same long documents, few and many.

Issue 72 found the driver at 7.4 GB before the first shard on 10,000 documents of
150,000 characters (1.5 GB of text): it read the whole input into one table and handed
it to Ray. It now scans the input once (ids, fingerprint) and reads it again a shard at a
time, an actor taking a shard only when free (jobs/on_ray/deidentifying.py).

Each run is the real command (`python -m jobs.deidentify`, a local Ray cluster) with one
cheap detector, the employee-number pattern of tests/extensions (installed the way a
user installs a plugin), so that the detectors' time does not hide the driver: what is
measured is what the driver holds. The driver's peak resident memory (VmHWM, sampled
every 0.2 s) is the number; the baseline is the same run on `--baseline-docs` documents.

    python -m benchmarks.deid.memory [--docs 10000] [--chars 150000] [--baseline-docs 100]

Prints a table and writes benchmarks/results/deid_memory.json. Run it alone.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.report import ROOT, print_table, write_results
from synth.io.layout import MANIFEST, kept

PLUGIN = ROOT / "tests" / "extensions" / "employee_numbers"
SENTENCE = "Please update the record before the review on the third floor of the office. "


def write_input(path: Path, docs: int, chars: int) -> int:
    """`docs` JSONL documents of `chars` characters each, one employee number in each
    (the detector's one find); returns the file's bytes."""
    body = SENTENCE * (chars // len(SENTENCE) + 1)
    with path.open("w") as f:
        for i in range(docs):
            text = f"EMP-{i:06d} " + body[: chars - 11]
            f.write(json.dumps({"id": f"d{i}", "text": text}) + "\n")
    return path.stat().st_size


def install_plugin(site: Path) -> None:
    source = site.parent / "src"
    shutil.copytree(PLUGIN, source)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
        + ["--no-build-isolation", "--target", str(site), str(source)],
        check=True,
        capture_output=True,
    )


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run(input_path: Path, output: Path, env: dict, shard_size: int) -> dict:
    """The real command; the driver's peak RSS sampled until it exits."""
    argv = [sys.executable, "-m", "jobs.deidentify", "--input", str(input_path)]
    argv += ["--output", str(output), "--detectors", "employee_numbers", "--method", "tag"]
    argv += ["--shard-size", str(shard_size)]
    started = time.time()
    process = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    peak = [0.0]

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], peak_rss_mb(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = process.communicate()
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"deidentify failed ({process.returncode}): {err.decode()[-2000:]}")
    manifest = json.loads(Path(kept(output, MANIFEST)).read_text())
    return {
        "documents": manifest["documents"],
        "driver_peak_rss_mb": round(peak[0], 1),
        "wall_s": round(time.time() - started, 1),
        "spans": sum(manifest["spans_per_type"].values()),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--chars", type=int, default=150_000)
    parser.add_argument("--baseline-docs", type=int, default=100)
    parser.add_argument("--shard-size", type=int, default=64)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="deid-memory-"))
    try:
        install_plugin(work / "site")
        env = {**os.environ, "PYTHONPATH": str(work / "site")}
        rows = []
        for docs in (args.baseline_docs, args.docs):
            source = work / f"in-{docs}.jsonl"
            size = write_input(source, docs, args.chars)
            row = run(source, work / f"out-{docs}", env, args.shard_size)
            rows.append({**row, "input_mb": round(size / 2**20, 1), "chars_each": args.chars})
            source.unlink()
            shutil.rmtree(work / f"out-{docs}")
            print(rows[-1], flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows[1]["peak_vs_baseline"] = round(
        rows[1]["driver_peak_rss_mb"] / rows[0]["driver_peak_rss_mb"], 2
    )
    print_table(
        rows,
        [
            ("documents", "documents", ""),
            ("input_mb", "input MB", ""),
            ("driver_peak_rss_mb", "driver peak RSS MB", ""),
            ("wall_s", "wall s", ""),
        ],
    )
    write_results(
        "deid_memory.json",
        {
            "what": "deidentify's driver peak RSS, few against many documents of the same length",
            "shard_size": args.shard_size,
            "detector": "employee_numbers (tests/extensions, a regular expression)",
            "runs": rows,
        },
    )


if __name__ == "__main__":
    main()
