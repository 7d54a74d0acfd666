"""Engines compared: the in-process Hugging Face engine vs the same model served over HTTP.

The same planned tickets, model and generation parameters, in one run on this machine:
rendered with the in-process engine (batches of --batch-size), then through the OpenAI
engine against `hrsynth serve` (its own process, same model, batching the concurrent
requests). Tokens/s, tickets/s, peak memory (the serving process's for the served row)
and the share of the matmul roofline (as benchmarks/generation.py computes it).

    python -m benchmarks.engines [--num-docs 256] [--batch-size 64]

Prints a table and writes benchmarks/results/engines.json. Measure with nothing else
running: the machine has 2 cores.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import torch

from benchmarks.generation import matmul_gflops, timed
from synth.config.generate import load_config
from synth.docs import plan_documents
from synth.generation.hf_engine import Generator
from synth.generation.openai_engine import OpenAIEngine

RESULTS = Path(__file__).parent / "results" / "engines.json"


def vm_hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--num-docs", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--config", default="configs/tickets.yaml")
    p.add_argument("--dp-model", default="out/absence_model.json")
    args = p.parse_args(argv)
    cfg = load_config(
        args.config,
        {"num_docs": args.num_docs, "dp_model": args.dp_model, "reference_date": "2026-11-22"},
    )
    docs, _ = plan_documents(cfg, "engines")
    params = cfg.generation_params()
    fp32, bf16 = matmul_gflops(torch.float32), matmul_gflops(torch.bfloat16)

    generator = Generator(cfg.model, cfg.device, cfg.dtype)
    in_process = timed(docs, generator, params, "plain", args.batch_size)
    parameters, dtype = generator.parameters, generator.model.dtype
    del generator

    server = subprocess.Popen(
        [sys.executable, "-m", "jobs.serve", "--model", cfg.model, "--name", "bench"]
        + ["--port", "0", "--max-batch", str(args.batch_size), "--wait-ms", "50"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = server.stdout.readline().split(" at ", 1)[1].split()[0]
        client = OpenAIEngine("openai:bench", {"base_url": url, "concurrency": args.batch_size})
        served = timed(docs, client, params, "plain", args.batch_size)
        served["peak_rss_mb"] = round(vm_hwm_mb(server.pid))  # the server's, not ours
    finally:
        server.terminate()
        server.wait(timeout=60)

    roof = bf16 if dtype == torch.bfloat16 else fp32
    for r in (in_process, served):
        r["roofline_share"] = round(2 * parameters * r["tokens_per_s"] / (roof * 1e9), 4)
    result = {
        "model": cfg.model,
        "parameters": parameters,
        "dtype": str(dtype),
        "rows": len(docs),
        "batch_size": args.batch_size,
        "config": args.config,
        "generation_parameters": params.to_dict(),
        "threads": torch.get_num_threads(),
        "matmul_gflops_fp32": round(fp32, 1),
        "matmul_gflops_bf16": round(bf16, 1),
        "in_process": in_process,
        "served": served,
        "served_over_in_process_tokens_per_s": round(
            served["tokens_per_s"] / in_process["tokens_per_s"], 2
        ),
        "served_over_in_process_tickets_per_s": round(
            served["tickets_per_s"] / in_process["tickets_per_s"], 2
        ),
    }
    print(f"\n{'engine':<34}{'tokens/s':>10}{'tickets/s':>11}{'seconds':>9}{'peak MB':>9}")
    for name, r in (("in-process (Hugging Face)", in_process), ("served (hrsynth serve)", served)):
        print(
            f"{name:<34}{r['tokens_per_s']:>10}{r['tickets_per_s']:>11}{r['seconds']:>9}"
            f"{r['peak_rss_mb']:>9}"
        )
    print(
        f"served / in-process: {result['served_over_in_process_tokens_per_s']}× tokens/s, "
        f"{result['served_over_in_process_tickets_per_s']}× tickets/s"
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
