"""Thirty broken plugins through the real command line (tests/broken_plugins.py: five
extension points by six faults), each installed alone: the run's exit code, its stderr
lines, whether the last is the expected one `error:` line, the wall time, and whether
anything was left in its output folder (issue 73 asks: one line, exit 2, within 20 s,
nothing written). A case holds with exactly one `error:` line, the last, no traceback,
exit 2 and an empty output; `stderr lines` counts the notices before it too (an
evaluate task's cases start Ray first, which may print its own notice).

    python -m benchmarks.plugins.broken_matrix [--cases backend/call,kind/import]

Prints a table and writes benchmarks/results/broken_plugins.json. Run it alone (each
case starts its own processes; the task cases start a local Ray cluster).
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.report import print_table, write_results
from tests.broken_plugins import CASES, DOCUMENTS, argv, install

ROOT = Path(__file__).resolve().parents[2]
HRSYNTH = str(Path(sys.executable).parent / "hrsynth")


def inputs(work: Path) -> dict:
    """A fitted DP model, a small generated output, documents and an empty config."""
    model = work / "absence_model.json"
    fit = [sys.executable, "-m", "jobs.fit", "--data", "data/demo/absenteeism.csv"]
    fit += ["--schema", "configs/absenteeism_schema.yaml", "--epsilon", "1"]
    subprocess.run([*fit, "--output", str(model)], cwd=ROOT, check=True, capture_output=True)
    tickets = work / "tickets"
    generate = [HRSYNTH, "generate", "--config", "configs/tickets.yaml", "--num-docs", "16"]
    generate += ["--dp-model", str(model), "--output", str(tickets), "--backend", "llama"]
    subprocess.run(generate, cwd=ROOT, check=True, capture_output=True)
    documents = work / "docs.jsonl"
    documents.write_text(
        "".join(json.dumps({"id": str(i), "text": t}) + "\n" for i, t in enumerate(DOCUMENTS))
    )
    config = work / "empty.yaml"
    config.write_text("{}\n")
    return {"dp_model": model, "tickets": tickets, "documents": documents, "config": config}


def run_case(case: str, work: Path, given: dict) -> dict:
    env = install(case, work)
    out = work / "out" / case.replace("/", "_")
    started = time.perf_counter()
    done = subprocess.run(
        [HRSYNTH, *argv(case, out, given)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    lines = done.stderr.strip().splitlines()
    return {
        "case": case,
        "exit": done.returncode,
        "stderr_lines": len(lines),
        "error_lines": sum(line.startswith("error: ") for line in lines),
        "expected_line": bool(lines) and lines[-1].startswith(CASES[case].line),
        "traceback": "Traceback" in done.stderr,
        "wall_s": round(wall, 2),
        "output_left": out.exists() and any(out.iterdir()),
        "last_line": lines[-1][:200] if lines else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--output", default="broken_plugins.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        given = inputs(work)
        rows = [run_case(case, work, given) for case in args.cases.split(",")]
    print_table(
        rows,
        [("case", "case", ""), ("exit", "exit", ""), ("stderr_lines", "stderr lines", ""),
         ("error_lines", "error: lines", ""), ("expected_line", "expected line", ""),
         ("wall_s", "wall s", ".1f"), ("output_left", "output left", "")],
    )  # fmt: skip
    held = [r for r in rows if r["exit"] == 2 and r["error_lines"] == 1 and r["expected_line"]]
    held = [r for r in held if not r["traceback"] and not r["output_left"]]
    print(f"{len(held)} of {len(rows)} cases: one error line, exit 2, nothing written; "
          f"slowest {max(r['wall_s'] for r in rows):.1f} s")  # fmt: skip
    write_results(args.output, {"cases": rows, "held": len(held), "of": len(rows)})


if __name__ == "__main__":
    main()
