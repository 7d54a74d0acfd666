"""Which of the project's modules a `generate --backend ct2` run of 8 tickets loads, on
the driver and in the actors (docs/architecture.md names them).

Every process of the run (the driver, Ray's workers) records its loaded modules to a
file every half second and at exit (a sitecustomize on PYTHONPATH); the last record of
each process is read. Run it from a checkout; `--code DIR` measures another checkout
(an older commit's worktree) with the same command:

    python -m benchmarks.speed.run_imports --label after
    git worktree add /tmp/before 3037b9c
    python -m benchmarks.speed.run_imports --label before --code /tmp/before

Merges {label: {driver, actor: [modules]}} into benchmarks/results/run_imports.json and
prints the counts.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.report import RESULTS_DIR, ROOT, write_results

RESULTS = RESULTS_DIR / "run_imports.json"
OURS = ("synth", "jobs", "eval")
RECORDER = """
import atexit, os, sys, threading, time

def _record():
    mods = sorted(m for m in list(sys.modules) if m.split(".")[0] in {ours!r})
    with open(os.path.join({folder!r}, f"{{os.getpid()}}.json"), "w") as f:
        f.write(__import__("json").dumps({{"argv": sys.argv[:3], "modules": mods}}))

def _loop():
    while True:
        time.sleep(0.5)
        try:
            _record()
        except Exception:
            pass

threading.Thread(target=_loop, daemon=True).start()
atexit.register(_record)
"""


def measure(code: Path, dp_model: Path) -> dict:
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        hook, records = work / "hook", work / "records"
        hook.mkdir()
        records.mkdir()
        (hook / "sitecustomize.py").write_text(RECORDER.format(ours=OURS, folder=str(records)))
        env = {**os.environ, "PYTHONPATH": f"{hook}{os.pathsep}{code}"}
        argv = [sys.executable, "-m", "jobs.generate", "--config", "configs/tickets.yaml"]
        argv += ["--backend", "ct2", "--num-docs", "8", "--batch-size", "8", "--seed", "7"]
        argv += ["--dp-model", str(dp_model), "--output", str(work / "out")]
        subprocess.run(argv, cwd=code, env=env, check=True, capture_output=True)
        driver, actors = set(), set()
        for record in records.glob("*.json"):
            found = json.loads(record.read_text())
            if found["argv"] and found["argv"][0].endswith(os.path.join("jobs", "generate.py")):
                driver |= set(found["modules"])
            elif any(m.startswith("synth.generation") for m in found["modules"]):
                actors |= set(found["modules"])
        return {"driver": sorted(driver), "actor": sorted(actors)}


def files_of(modules: list[str], code: Path) -> list[str]:
    out = []
    for m in modules:
        base = code.joinpath(*m.split("."))
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if path.exists():
            out.append(str(path.relative_to(code)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", required=True)
    parser.add_argument("--code", type=Path, default=ROOT)
    parser.add_argument("--dp-model", type=Path, default=ROOT / "out" / "absence_model.json")
    args = parser.parse_args(argv)
    found = measure(args.code.resolve(), args.dp_model.resolve())
    row = {k: files_of(v, args.code.resolve()) for k, v in found.items()}
    row["union"] = sorted(set(row["driver"]) | set(row["actor"]))
    commit = ["git", "-C", str(args.code), "rev-parse", "--short", "HEAD"]
    row["commit"] = subprocess.run(
        commit, check=False, capture_output=True, text=True
    ).stdout.strip()
    print(
        f"{args.label}: driver {len(row['driver'])} files, actor {len(row['actor'])}, "
        f"union {len(row['union'])}"
    )
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    old.pop("provenance", None)
    write_results(RESULTS, {**old, args.label: row})
    return 0


if __name__ == "__main__":
    sys.exit(main())
