"""One engines row (benchmarks/speed/engines.py) timed on two checkouts of the project,
alternately, so a change to an engine is measured against the code before it on the same
CPU in the same run.

    git worktree add /tmp/before <commit>
    python -m benchmarks.speed.before_after --before /tmp/before --row hf:bfloat16 \\
        [--after .] [--repeats 2] [--num-docs 256] [--batch-size 128] [--output NAME]

Each run is a process of its own in that checkout (its own imports, its own peak RSS),
on the same planned tickets. Prints a table and writes benchmarks/results/NAME
(default before_after.json) with the commits compared. Measure with nothing else
running: the machine has 2 cores.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from benchmarks.report import ROOT, print_table, write_results


def commit(folder: Path) -> str:
    out = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
        check=False,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() or "unknown"


def one_run(folder: Path, args) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.speed.engines", "--row", args.row]
    cmd += ["--num-docs", str(args.num_docs), "--batch-size", str(args.batch_size)]
    cmd += ["--config", "configs/tickets.yaml", "--dp-model", str(Path(args.dp_model).resolve())]
    out = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", required=True, help="a checkout of the code before")
    p.add_argument("--after", default=str(ROOT), help="a checkout of the code after")
    p.add_argument("--row", default="hf:bfloat16", help="backend:dtype, as engines.py's rows")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--num-docs", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--dp-model", default="out/absence_model.json")
    p.add_argument("--output", default="before_after.json")
    args = p.parse_args(argv)
    sides = {"before": Path(args.before), "after": Path(args.after)}
    rows = []
    for repeat in range(args.repeats):
        for side, folder in sides.items():
            result = one_run(folder, args)
            rows.append({"side": side, "repeat": repeat + 1, **result})
            print(f"{side} {repeat + 1}: {result['tickets_per_s']} tickets/s", flush=True)
    mean = {
        side: {
            key: sum(r[key] for r in rows if r["side"] == side) / args.repeats
            for key in ("tickets_per_s", "tokens_per_s", "peak_rss_mb")
        }
        for side in sides
    }
    ratios = {key: round(mean["after"][key] / mean["before"][key], 3) for key in mean["after"]}
    columns = [("side", "side", "s"), ("repeat", "run", "d"), ("tickets_per_s", "tickets/s", ".2f")]
    columns += [("tokens_per_s", "tokens/s", ".1f"), ("peak_rss_mb", "peak MB", "d")]
    print_table(rows, columns)
    print(f"after / before (means): {ratios}")
    result = {
        "row": args.row,
        "tickets": args.num_docs,
        "batch_size": args.batch_size,
        "commits": {side: commit(folder) for side, folder in sides.items()},
        "runs": rows,
        "after_over_before": ratios,
    }
    write_results(args.output, result)
    return result


if __name__ == "__main__":
    main()
