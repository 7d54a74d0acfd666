"""Planning only: the generate driver's memory and time as --num-docs grows.

Each point runs in a fresh process (peak RSS is the process's high-water mark, imports
included) with the default ticket config and its DP model:
- driver, per shard (this code): what `hrsynth generate` does before Ray starts: the
  planner built (taxonomy and DP model loaded, settings checked), finished shards found,
  the shard numbers left to write. No document is planned on the driver.
- driver, whole run (the baseline, run from a checkout of the code before per-shard
  planning, `--before`): every document planned in the driver's memory, as it was.
- actor, per shard: planning shards one at a time as an actor does (documents per
  second and the process's peak), the cost that moved from the driver to the actors.

    python -m benchmarks.speed.planning --before /tmp/before [--sizes 10000 1000000 100000000]
        [--before-sizes 10000 100000]

`--before`: a git worktree of the commit before per-shard planning (8070ead), e.g.
`git worktree add /tmp/before 8070ead`, with the DP model copied into its `out/`. The
default config needs `out/absence_model.json` (`make demo` or `hrsynth fit`). Prints a table and writes
benchmarks/results/planning.json. Measure with nothing else running: 2 cores here.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.report import RESULTS_DIR, ROOT, write_results

RESULTS = RESULTS_DIR / "planning.json"

# Each child prints one JSON line: seconds of the measured step and its peak RSS (MiB).
PER_SHARD_DRIVER = """
import json, resource, sys, tempfile, time
from synth.config.generate import load_config
from jobs import generate
started = time.perf_counter()
cfg = load_config("configs/tickets.yaml", {"num_docs": int(sys.argv[1])})
planner, todo = generate._plan(cfg, {"run_id": "bench"}, tempfile.mkdtemp())
print(json.dumps({"seconds": time.perf_counter() - started, "shards": len(todo),
  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
WHOLE_RUN_DRIVER = """
import json, resource, sys, time
from synth.config.generate import load_config
from synth.kinds import plan_documents
started = time.perf_counter()
cfg = load_config("configs/tickets.yaml", {"num_docs": int(sys.argv[1])})
docs, notes = plan_documents(cfg, "bench")
print(json.dumps({"seconds": time.perf_counter() - started, "documents": len(docs),
  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
ACTOR = """
import json, resource, sys, time
from synth.config.generate import load_config
from synth.kinds import planner
cfg = load_config("configs/tickets.yaml", {"num_docs": 10**8})
run = planner(cfg, "bench")
run.plan_shard(0)  # caches warm, as in a running actor
started, shards = time.perf_counter(), int(sys.argv[1])
documents = sum(len(run.plan_shard(s).docs) for s in range(1, shards + 1))
print(json.dumps({"seconds": time.perf_counter() - started, "documents": documents,
  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
IMPORTS_ONLY = """
import json, resource
from synth.config.generate import load_config
from jobs import generate
from synth.kinds import plan_documents
print(json.dumps({"peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(code: str, root: Path, *args) -> dict:
    """Run `code` in a fresh interpreter with `root` as the project (cwd and import path)."""
    env = os.environ | {"PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"child failed in {root}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="checkout of the whole-run planner")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**4, 10**6, 10**8])
    parser.add_argument("--before-sizes", type=int, nargs="+", default=[10**4, 10**5])
    parser.add_argument("--actor-shards", type=int, default=100)
    args = parser.parse_args(argv)

    rows = [{"what": "imports only (this code)", **child(IMPORTS_ONLY, ROOT)}]
    for n in args.sizes:
        rows.append(
            {"what": "driver, per shard", "num_docs": n, **child(PER_SHARD_DRIVER, ROOT, n)}
        )
    if args.before:
        for n in args.before_sizes:
            point = child(WHOLE_RUN_DRIVER, args.before, n)
            rows.append({"what": "driver, whole run (before)", "num_docs": n, **point})
    point = child(ACTOR, ROOT, args.actor_shards)
    point["documents_per_s"] = point["documents"] / point["seconds"]
    rows.append({"what": "actor, one shard at a time", **point})

    print(f"{'what':<30} {'num_docs':>12} {'seconds':>9} {'peak MiB':>9}")
    for r in rows:
        n = r.get("num_docs", r.get("documents", ""))
        print(f"{r['what']:<30} {n:>12} {r.get('seconds', 0):>9.2f} {r['peak_mib']:>9.0f}")
    write_results(RESULTS.name, {"rows": rows, "cpus": os.cpu_count()})
    print(f"written {RESULTS}")


if __name__ == "__main__":
    main()
