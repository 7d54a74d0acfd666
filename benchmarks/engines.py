"""Engines compared: Hugging Face (bf16) and CTranslate2 (int8, float32), each in-process
and served by `hrsynth serve`, on the same planned tickets, model and parameters.

Every row runs in a process of its own (so its peak RSS is its own): an in-process row
renders the tickets in batches of --batch-size; a served row starts `hrsynth serve` with
that backend and renders them through the OpenAI engine (the serving process's peak RSS).
The roofline share is 2 × parameters × tokens/s over the matmul rate of the engine's
compute type, measured here in the same run (fp32, bf16, int8 → int32 at 2048²): once for
the generated tokens alone (as earlier runs reported it) and once for every token the
model processed (prompt and generated), which is the work actually done.

    python -m benchmarks.engines [--num-docs 256] [--batch-size 64] [--rows hf:bfloat16,...]

Prints a table and writes benchmarks/results/engines.json. Measure with nothing else
running: the machine has 2 cores.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import torch

from benchmarks.generation import matmul_gflops, timed
from synth.config.generate import load_config
from synth.docs import plan_documents

RESULTS = Path(__file__).parent / "results" / "engines.json"
ROWS = "hf:bfloat16,ct2:int8,ct2:float32"


def int8_gops(size: int = 2048, repeats: int = 10) -> float:
    """int8 × int8 → int32 matmul rate (VNNI where the CPU has it), GOP/s."""
    a = torch.randint(-128, 127, (size, size), dtype=torch.int8)
    b = torch.randint(-128, 127, (size, size), dtype=torch.int8)
    torch._int_mm(a, b)  # warm-up
    start = time.perf_counter()
    for _ in range(repeats):
        torch._int_mm(a, b)
    return 2 * size**3 * repeats / (time.perf_counter() - start) / 1e9


def vm_hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def planned(args):
    cfg = load_config(
        args.config,
        {"num_docs": args.num_docs, "dp_model": args.dp_model, "reference_date": "2026-11-22"},
    )
    docs, _ = plan_documents(cfg, "engines")
    return cfg, docs


def one_row(args) -> dict:
    """One row, in this process: in-process, or as the client of a server it starts."""
    from synth.generation.backends import build_engine
    from synth.generation.openai_engine import OpenAIEngine

    backend, dtype = args.row.split(":")
    cfg, docs = planned(args)
    params = cfg.generation_params()
    if not args.served:
        engine = build_engine(cfg.generator.model, backend, "cpu", dtype)
        return timed(docs, engine, params, "plain", args.batch_size)
    server = subprocess.Popen(
        [sys.executable, "-m", "jobs.serve", "--model", cfg.generator.model, "--name", "bench"]
        + ["--backend", backend, "--dtype", dtype, "--device", "cpu", "--port", "0"]
        + ["--max-batch", str(args.batch_size), "--wait-ms", "50"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = server.stdout.readline().split(" at ", 1)[1].split()[0]
        client = OpenAIEngine("openai:bench", {"base_url": url, "concurrency": args.batch_size})
        result = timed(docs, client, params, "plain", args.batch_size)
        return result | {"peak_rss_mb": round(vm_hwm_mb(server.pid))}  # the server's
    finally:
        server.terminate()
        server.wait(timeout=60)


def parameters(model: str) -> int:
    from synth.generation.hf_engine import load_model

    return sum(p.numel() for p in load_model(model, "cpu", "float32")[1].parameters())


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--num-docs", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--config", default="configs/tickets.yaml")
    p.add_argument("--dp-model", default="out/absence_model.json")
    p.add_argument("--rows", default=ROWS, help="backend:dtype pairs, comma-separated")
    p.add_argument("--row", help=argparse.SUPPRESS)  # internal: run one row, print JSON
    p.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.row:
        print(json.dumps(one_row(args)))
        return {}
    cfg, docs = planned(args)
    rates = {
        "float32": matmul_gflops(torch.float32),
        "bfloat16": matmul_gflops(torch.bfloat16),
        "int8": int8_gops(),
    }
    count = parameters(cfg.generator.model)
    rows = []
    for row in args.rows.split(","):
        for served in (False, True):
            cmd = [sys.executable, "-m", "benchmarks.engines", "--row", row]
            cmd += ["--num-docs", str(args.num_docs), "--batch-size", str(args.batch_size)]
            cmd += ["--config", args.config, "--dp-model", args.dp_model]
            cmd += ["--served"] if served else []
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            result = json.loads(out.strip().splitlines()[-1])
            backend, dtype = row.split(":")
            rate = rates["int8" if dtype.startswith("int8") else dtype]
            result |= {
                "backend": backend,
                "dtype": dtype,
                "mode": "served" if served else "in-process",
                "roofline_share": round(2 * count * result["tokens_per_s"] / (rate * 1e9), 4),
                "roofline_share_processed": round(
                    2 * count * result["processed_tokens_per_s"] / (rate * 1e9), 4
                ),
            }
            rows.append(result)
            print(f"{row} {result['mode']}: {result['tokens_per_s']} tokens/s", flush=True)
    base = next(r for r in rows if r["backend"] == "hf" and r["mode"] == "in-process")
    for r in rows:
        r["tokens_per_s_over_hf"] = round(r["tokens_per_s"] / base["tokens_per_s"], 2)
        r["tickets_per_s_over_hf"] = round(r["tickets_per_s"] / base["tickets_per_s"], 2)
    result = {
        "model": cfg.generator.model,
        "parameters": count,
        "tickets": len(docs),
        "batch_size": args.batch_size,
        "config": args.config,
        "generation_parameters": cfg.generation_params().to_dict(),
        "threads": torch.get_num_threads(),
        "matmul_gops": {k: round(v, 1) for k, v in rates.items()},
        "rows": rows,
    }
    head = f"{'engine':<26}{'tokens/s':>10}{'× HF':>7}{'tickets/s':>11}{'peak MB':>9}"
    print("\n" + head + f"{'roofline':>10}{'(all tokens)':>14}")
    for r in rows:
        name = f"{r['backend']} {r['dtype']} {r['mode']}"
        print(
            f"{name:<26}{r['tokens_per_s']:>10}{r['tokens_per_s_over_hf']:>7}"
            f"{r['tickets_per_s']:>11}{r['peak_rss_mb']:>9}{r['roofline_share']:>10}"
            f"{r['roofline_share_processed']:>14}"
        )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
