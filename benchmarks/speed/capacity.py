"""Capacity for 1 million tickets: measured here on CPU, estimated for GPUs.

The CPU row is measured: benchmarks/results/generation.json (SmolLM2-135M, bf16, one
actor with both cores, batch 128), run by `make bench`. The GPU rows are estimates from
a roofline model, because this machine has no GPU. Method, per ticket:

  decode  : every new token of a batch reads the weights once and each row's KV cache;
            time per step = (weight bytes + batch × context × KV bytes per token)
            / (memory bandwidth × efficiency). Tokens per ticket are the measured ones.
  prefill : each slot's prompt is re-read (as our engine does), compute bound:
            2 × parameters × prompt tokens / (dense fp16/bf16 FLOP/s × efficiency).

Efficiencies are assumptions, stated in the table (Hugging Face `generate`, no paged
attention, no speculative decoding): 50 % of peak bandwidth, 40 % of peak FLOP/s. An
eager step also costs at least EAGER_STEP_S whatever the batch (Python and kernel
launches: measured on one H100 for issue 55), which bounds a small model's rows. A
serving engine (vLLM, TensorRT-LLM) would do better.

Measured GPU rows come from benchmarks/results/gpu.json (benchmarks/speed/gpu.py: the
streaming engine's rollout of planned tickets on one GPU) when it exists, and from issue
55's measurement of the engine before it (one H100, 256 rows per call).

    python -m benchmarks.speed.capacity [--tickets 1000000] [--prompt-tokens 300]

Prints a table and writes benchmarks/results/capacity.json.
"""

import argparse
import json

from benchmarks.report import RESULTS_DIR, write_results

RESULTS = RESULTS_DIR
BANDWIDTH_EFFICIENCY = 0.5
FLOPS_EFFICIENCY = 0.4
# Seconds an eager decode step costs at least (a bare greedy loop at 64 rows on one H100
# 80GB, SmolLM2-135M bf16: 1,145 tokens/s; issue 55, 2026-11-27).
EAGER_STEP_S = 0.056
# The engine before issue 55 on the same H100, 256 rows per call: tokens/s (issue 55).
BEFORE_ISSUE_55_H100 = {"batch": 256, "tokens_per_s": 1805}

# Public datasheet numbers: memory bandwidth (GB/s), dense fp16/bf16 tensor TFLOP/s.
GPUS = {
    "A10G 24 GB": (600, 125),
    "L4 24 GB": (300, 121),
    "A100 80 GB": (2039, 312),
    "H100 80 GB SXM": (3350, 989),
}
# Parameters, layers, KV heads × head size (per layer, K and V), bytes per value (fp16/bf16).
MODELS = {
    "GPT-J-6B fp16": (6.05e9, 28, 4096, 2),
    "Llama-3.1-8B bf16": (8.03e9, 32, 1024, 2),
    "SmolLM2-135M bf16": (1.35e8, 30, 192, 2),
}
RUNS = [
    ("GPT-J-6B fp16", "A10G 24 GB", 32),
    ("GPT-J-6B fp16", "A100 80 GB", 128),
    ("Llama-3.1-8B bf16", "L4 24 GB", 32),
    ("Llama-3.1-8B bf16", "A100 80 GB", 128),
    ("Llama-3.1-8B bf16", "H100 80 GB SXM", 128),
    ("SmolLM2-135M bf16", "L4 24 GB", 256),
]


def estimate(model: str, gpu: str, batch: int, new_tokens: float, prompt_tokens: float) -> dict:
    params, layers, kv_width, nbytes = MODELS[model]
    bandwidth, tflops = GPUS[gpu]
    context = prompt_tokens / 2 + new_tokens / 2  # average position while decoding a slot
    kv_bytes_per_token = 2 * layers * kv_width * nbytes
    step_s = max(
        EAGER_STEP_S,
        (params * nbytes + batch * context * kv_bytes_per_token)
        / (bandwidth * 1e9 * BANDWIDTH_EFFICIENCY),
    )
    decode_tokens_per_s = batch / step_s
    prefill_s = 2 * params * prompt_tokens / (tflops * 1e12 * FLOPS_EFFICIENCY)
    seconds_per_ticket = new_tokens / decode_tokens_per_s + prefill_s
    return {
        "model": model,
        "gpu": gpu,
        "batch": batch,
        "measured": False,
        "tokens_per_s": decode_tokens_per_s,
        "seconds_per_ticket": seconds_per_ticket,
    }


def measured_gpu_rows(new_tokens: float) -> list[dict]:
    """GPU rows that were measured: the engine before issue 55 on one H100, and the
    streaming engine's rollout from gpu.json when a GPU run wrote it."""
    before = BEFORE_ISSUE_55_H100
    rows = [
        {
            "model": "SmolLM2-135M bf16",
            "gpu": "H100 80 GB, engine before issue 55",
            "batch": before["batch"],
            "measured": True,
            "tokens_per_s": before["tokens_per_s"],
            "seconds_per_ticket": new_tokens / before["tokens_per_s"],
        }
    ]
    path = RESULTS / "gpu.json"
    if path.exists():
        gpu = json.loads(path.read_text())
        rollout = next((r for r in gpu["rows"] if r["row"] == "rollout"), None)
        if rollout:
            rows.append(
                {
                    "model": "SmolLM2-135M bf16",
                    "gpu": f"{gpu['machine_detail'].get('gpu', 'GPU')}, streaming engine",
                    "batch": rollout["rows_in_flight"],
                    "measured": True,
                    "tokens_per_s": rollout["tokens_per_s"],
                    "seconds_per_ticket": 1 / rollout["tickets_per_s"],
                }
            )
    return rows


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--tickets", type=int, default=1_000_000)
    p.add_argument(
        "--prompt-tokens",
        type=float,
        default=300,
        help="prompt tokens re-read per ticket, all slots together (assumption)",
    )
    args = p.parse_args(argv)
    measured = json.loads((RESULTS / "generation.json").read_text())
    ours = measured["ours"]
    new_tokens = ours["tokens"] / measured["rows"]
    rows = [
        {
            "model": "SmolLM2-135M bf16",
            "gpu": f"this machine: CPU, {measured['threads']} threads, 1 actor",
            "batch": measured["batch_size"],
            "measured": True,
            "tokens_per_s": ours["tokens_per_s"],
            "seconds_per_ticket": 1 / ours["tickets_per_s"],
        }
    ]
    rows += measured_gpu_rows(new_tokens)
    rows += [estimate(m, g, b, new_tokens, args.prompt_tokens) for m, g, b in RUNS]
    for r in rows:
        r["gpu_hours"] = r["seconds_per_ticket"] * args.tickets / 3600
        r["wall_hours_8_actors"] = r["gpu_hours"] / 8
    result = {
        "tickets": args.tickets,
        "new_tokens_per_ticket": round(new_tokens, 1),
        "prompt_tokens_per_ticket": args.prompt_tokens,
        "bandwidth_efficiency": BANDWIDTH_EFFICIENCY,
        "eager_step_s": EAGER_STEP_S,
        "flops_efficiency": FLOPS_EFFICIENCY,
        "source": "benchmarks/results/generation.json",
        "rows": rows,
    }
    print(
        f"1 actor per device; {new_tokens:.0f} new tokens per ticket (measured), "
        f"{args.prompt_tokens:.0f} prompt tokens (assumed); GPU rows are estimates"
    )
    print(f"{'model':<20}{'device':<36}{'batch':>6}{'tok/s':>9}{'device-h':>10}{'wall h, 8':>11}")
    for r in rows:
        print(
            f"{r['model']:<20}{r['gpu']:<36}{r['batch']:>6}{r['tokens_per_s']:>9.0f}"
            f"{r['gpu_hours']:>10.1f}{r['wall_hours_8_actors']:>11.1f}"
        )
    write_results("capacity.json", result, indent=1)
    return result


if __name__ == "__main__":
    main()
