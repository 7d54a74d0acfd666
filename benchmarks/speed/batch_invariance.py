"""Whether an engine writes a document's text whatever the batch it decodes in: the same
planned tickets and seed rendered in calls of 4 and of 2 documents, per engine, dtype
and CPU path (native, and forced to AVX2 kernels), and what a resume at another
--batch-size does there (`Backend.batch_free`: accepted only where the text is the same).

Each row runs in a process of its own with its CPU path's environment (benchmarks.report.
FORCED_AVX2). hf in bf16 is skipped on a CPU without AVX-512 BF16 (emulated, ~1000×
slower) and where it is forced to AVX2.

    python -m benchmarks.speed.batch_invariance [--num-docs 8] [--rows hf:float32,...]

Prints a table and writes benchmarks/results/batch_invariance.json.
"""

import argparse
import json
import os
import subprocess
import sys
from dataclasses import replace

from benchmarks.report import FORCED_AVX2, RESULTS_DIR, print_table, write_results

RESULTS = RESULTS_DIR / "batch_invariance.json"

ROWS = "hf:float32,hf:bfloat16,ct2:int8,ct2:float32,llama:auto"


def one_row(backend: str, dtype: str, num_docs: int, max_new_tokens: int) -> dict:
    """In this process: the texts at 4 and at 2 documents a call, compared."""
    from benchmarks.speed.engines import cpu_info
    from synth.config.generate import load_config
    from synth.generation.backends import Backend
    from synth.generation.render import render
    from synth.kinds import plan_documents

    cfg = load_config("configs/tickets.yaml", {"num_docs": num_docs, "seed": 5})
    docs, _ = plan_documents(cfg, "batch-invariance")
    params = cfg.generation_params()
    params = replace(params, max_new_tokens=max_new_tokens)
    backend_of = Backend.of(cfg.generator.model, backend, "cpu", dtype, threads=2)
    engine = backend_of.build()

    def texts(batch: int) -> list[str]:
        out = []
        for at in range(0, len(docs), batch):
            out += [r["text"] for r in render(docs[at : at + batch], engine, params, "plain", 5)]
        return out

    four, two = texts(4), texts(2)
    same = sum(a == b for a, b in zip(four, two))
    free = backend_of.batch_free(params)
    return {
        "engine": backend,
        "dtype": dtype,
        "described": backend_of.module.describe(backend_of.spec),
        "cpu": f"{cpu_info()['name']} ({cpu_info()['kind']})",
        "texts": len(four),
        "same_text_4_vs_2": same,
        "resume_at_other_batch_size": "accepted" if free else "refused",
        "sound": same == len(four) or not free,
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--num-docs", type=int, default=8)
    p.add_argument("--max-new-tokens", type=int, default=32)
    p.add_argument("--rows", default=ROWS, help="backend:dtype pairs")
    p.add_argument("--one", help=argparse.SUPPRESS)  # backend:dtype, in this process
    args = p.parse_args(argv)
    if args.one:
        backend, dtype = args.one.split(":")
        print(json.dumps(one_row(backend, dtype, args.num_docs, args.max_new_tokens)))
        return {}
    from benchmarks.speed.engines import cpu_info

    rows = []  # this run's; other engines' rows of the file are kept
    for path, env in (("native", {}), ("forced AVX2", FORCED_AVX2)):
        for pair in args.rows.split(","):
            bf16 = pair.endswith("bfloat16")
            if bf16 and (env or "bf16" not in cpu_info()["kind"]):
                continue
            command = [sys.executable, "-m", "benchmarks.speed.batch_invariance", "--one", pair]
            command += ["--num-docs", str(args.num_docs)]
            command += ["--max-new-tokens", str(args.max_new_tokens)]
            done = subprocess.run(
                command, env={**os.environ, **env}, capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                raise SystemExit(f"{pair} ({path}) failed:\n{done.stderr[-3000:]}")
            rows.append({"cpu_path": path, **json.loads(done.stdout.strip().splitlines()[-1])})
            print(json.dumps(rows[-1]), flush=True)
    previous = RESULTS.exists() and json.loads(RESULTS.read_text()).get("rows") or []
    key = lambda r: (r["cpu_path"], r["engine"], r["dtype"], r["cpu"])
    rows += [r for r in previous if key(r) not in {key(n) for n in rows}]
    rows.sort(key=lambda r: (r["cpu_path"] != "native", r["engine"], r["dtype"]))
    columns = [("engine", "engine", ""), ("dtype", "dtype", ""), ("described", "runs as", "")]
    columns += [("cpu_path", "CPU path", ""), ("same_text_4_vs_2", "same text (of 8)", "")]
    columns += [("resume_at_other_batch_size", "resume at another batch size", "")]
    columns += [("sound", "sound", "")]
    print_table(rows, columns)
    doc = {"num_docs": args.num_docs, "max_new_tokens": args.max_new_tokens, "rows": rows}
    write_results(RESULTS.name, doc)
    return doc


if __name__ == "__main__":
    main()
