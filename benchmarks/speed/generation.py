"""Generation speed: the Ticket Generator thesis's way (one ticket at a time) vs ours (batched slots).

Same model, same planned rows, same generation parameters and prompt style, in one run
on this machine; also the machine's matmul throughput, so that our tokens/s can be read
as a share of the compute roofline (2 × parameters × tokens/s ÷ matmul FLOP/s).

    python -m benchmarks.speed.generation [--num-docs 32] [--batch-size 32]

Prints a table and writes benchmarks/results/generation.json.
"""

import argparse
import resource
import time

import torch

from benchmarks.report import RESULTS_DIR, write_results
from synth.config.generate import load_config
from synth.generation.hf_engine import HFEngine
from synth.generation.render import render
from synth.kinds import plan_documents

RESULTS = RESULTS_DIR / "generation.json"


def matmul_gflops(dtype: torch.dtype, size: int = 2048, repeats: int = 10) -> float:
    a, b = torch.randn(size, size, dtype=dtype), torch.randn(size, size, dtype=dtype)
    a @ b  # warm-up
    start = time.perf_counter()
    for _ in range(repeats):
        a @ b
    return 2 * size**3 * repeats / (time.perf_counter() - start) / 1e9


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(docs, generator, params, style, batch_size):
    start = time.perf_counter()
    rows = []
    for i in range(0, len(docs), batch_size):
        rows += render(docs[i : i + batch_size], generator, params, style, seed=0)
    seconds = time.perf_counter() - start
    tokens = sum(r["generated_tokens"] for r in rows)
    prompt = sum(r["prompt_tokens"] for r in rows)
    return {
        "seconds": round(seconds, 2),
        "tokens": tokens,
        "prompt_tokens": prompt,
        "tokens_per_s": round(tokens / seconds, 2),
        "processed_tokens_per_s": round((tokens + prompt) / seconds, 2),
        "tickets_per_s": round(len(rows) / seconds, 4),
        "rows_with_error": sum(r["error"] is not None for r in rows),
        "peak_rss_mb": round(peak_rss_mb()),
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--num-docs", type=int, default=32)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--config", default="configs/tickets_classic.yaml")
    p.add_argument("--dp-model", default="out/absence_model.json")
    args = p.parse_args(argv)
    torch.set_num_threads(torch.get_num_threads())
    cfg = load_config(
        args.config,
        {"num_docs": args.num_docs, "dp_model": args.dp_model, "reference_date": "2026-11-22"},
    )
    docs, _ = plan_documents(cfg, "bench")
    params = cfg.generation_params()
    generator = HFEngine(cfg.generator.model, cfg.generator.device, cfg.generator.dtype)
    fp32, bf16 = matmul_gflops(torch.float32), matmul_gflops(torch.bfloat16)
    baseline = timed(docs, generator, params, cfg.generator.prompt_style, batch_size=1)
    ours = timed(docs, generator, params, cfg.generator.prompt_style, batch_size=args.batch_size)
    model_dtype = generator.model.dtype
    roof = bf16 if model_dtype == torch.bfloat16 else fp32
    result = {
        "model": cfg.generator.model,
        "parameters": generator.parameters,
        "dtype": str(model_dtype),
        "rows": len(docs),
        "batch_size": args.batch_size,
        "prompt_style": cfg.generator.prompt_style,
        "generation_parameters": params.to_dict(),
        "threads": torch.get_num_threads(),
        "matmul_gflops_fp32": round(fp32, 1),
        "matmul_gflops_bf16": round(bf16, 1),
        "baseline": baseline,
        "ours": ours,
        "baseline_tokens_per_s": baseline["tokens_per_s"],
        "tokens_per_s": ours["tokens_per_s"],
        "speedup": round(ours["tokens_per_s"] / baseline["tokens_per_s"], 2),
        "tickets_speedup": round(ours["tickets_per_s"] / baseline["tickets_per_s"], 2),
        "peak_rss_mb": ours["peak_rss_mb"],
        "roofline_share": round(2 * generator.parameters * ours["tokens_per_s"] / (roof * 1e9), 4),
        "baseline_roofline_share": round(
            2 * generator.parameters * baseline["tokens_per_s"] / (roof * 1e9), 4
        ),
    }
    print(f"\n{'way':<28}{'tokens/s':>10}{'tickets/s':>11}{'seconds':>9}{'peak MB':>9}")
    for name, r in (("thesis (batch 1)", baseline), (f"ours (batch {args.batch_size})", ours)):
        print(
            f"{name:<28}{r['tokens_per_s']:>10}{r['tickets_per_s']:>11}{r['seconds']:>9}"
            f"{r['peak_rss_mb']:>9}"
        )
    print(
        f"speedup {result['speedup']}×; matmul fp32 {result['matmul_gflops_fp32']} / bf16 "
        f"{result['matmul_gflops_bf16']} GFLOP/s; roofline share {result['roofline_share']}"
    )
    write_results(RESULTS.name, result, indent=1)
    return result


if __name__ == "__main__":
    main()
