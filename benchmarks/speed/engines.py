"""Engines compared: Hugging Face (bf16 where the CPU has it, else float32), CTranslate2
int8 and llama.cpp (the GGUF as shipped), each in-process and served by `hrsynth serve`,
on the same planned tickets, model and parameters.

Every row runs in a process of its own (so its peak RSS is its own): an in-process row
renders the tickets in batches of --batch-size; a served row starts `hrsynth serve` with
that backend and renders them through the OpenAI engine (the serving process's peak RSS).
The roofline share is 2 × parameters × tokens/s over the matmul rate of the engine's
compute type, measured here in the same run, only for the types the rows use (fp32, bf16,
int8 → int32 at 2048²; llama.cpp's quantised dot products are int8 ones): once for the
generated tokens alone and once for every token the model processed (prompt and
generated), which is the work actually done. A row `backend:dtype@N` runs the first N of
the planned tickets only (the slowest engine on a slow CPU; the table says so), and
`@N/in` in-process only.

    python -m benchmarks.speed.engines [--num-docs 256] [--batch-size 64] [--rows hf:float32@64,...]

Prints a table and writes this CPU kind's run into benchmarks/results/engines.json (the
other kind's run is kept), with the CPU's name and flags. Measure with nothing else
running: the machine has 2 cores.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import torch

from benchmarks.report import RESULTS_DIR, write_results
from benchmarks.speed.generation import matmul_gflops, timed
from synth.config.generate import load_config
from synth.kinds import plan_documents

RESULTS = RESULTS_DIR / "engines.json"
ROWS = {
    "cpu-bf16": "hf:bfloat16,ct2:int8,llama:auto,llama:Q8_0",
    "cpu-avx2": "hf:float32@32/in,ct2:int8,llama:auto,llama:Q8_0",
}
FLAGS = ("avx2", "fma", "f16c", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "avx_vnni")


def cpu_info() -> dict:
    """The CPU's name, the flags that decide the kernels, and torch's view of it."""
    from synth.generation.backends import cpu_kind, cpu_name

    info = {}
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        key, _, value = line.partition(":")
        info.setdefault(key.strip(), value.strip())  # the first processor's
    flags = set(info.get("flags", "").split())
    return {
        "name": info.get("model name", "unknown"),
        "flags": [f for f in FLAGS if f in flags],
        "torch_capability": cpu_name(),
        "kind": cpu_kind(),
        "emulated": {k: v for k, v in os.environ.items() if k in EMULATION},
    }


EMULATION = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "CT2_FORCE_CPU_ISA")


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
    from synth.generation.backends import Backend
    from synth.generation.openai_engine import OpenAIEngine

    backend, dtype = args.row.split(":")
    cfg, docs = planned(args)
    docs = docs[: args.first or None]
    params = cfg.generation_params()
    model = cfg.generator.model
    if backend == "llama" and dtype != "auto":  # the embedded GGUF at another type
        import gguf

        from benchmarks.speed.requantize_gguf import requantized
        from synth.generation.llama_engine import gguf_path

        model = str(requantized(gguf_path(model), gguf.GGMLQuantizationType[dtype]))
        dtype = "auto"
    if not args.served:
        engine = Backend.of(model, backend, "cpu", dtype).build()
        return timed(docs, engine, params, "plain", args.batch_size)
    server = subprocess.Popen(
        [sys.executable, "-m", "jobs.serve", "--model", model, "--name", "bench"]
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
    p.add_argument("--rows", help="backend:dtype[@N] rows, comma-separated (default: by CPU)")
    p.add_argument("--in-process-only", action="store_true", help="no served rows")
    p.add_argument(
        "--merge", action="store_true", help="keep this CPU's other rows from an earlier run"
    )
    p.add_argument("--row", help=argparse.SUPPRESS)  # internal: run one row, print JSON
    p.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.row:
        print(json.dumps(one_row(args)))
        return {}
    cpu = cpu_info()
    rows_asked = [r.partition("@") for r in (args.rows or ROWS[cpu["kind"]]).split(",")]
    # `row@N/in`: in-process only (served through the same engine, not worth its minutes)
    alone = {row for row, _, first in rows_asked if first.endswith("/in")}
    rows_asked = [(row, _, first.removesuffix("/in")) for row, _, first in rows_asked]
    cfg, docs = planned(args)
    types = {rate_type(row.split(":")[1]) for row, _, _ in rows_asked}
    rates = {t: RATES[t]() for t in sorted(types)}  # only the rates the rows use
    count = parameters(cfg.generator.model)
    rows = []
    for row, _, first in rows_asked:
        for served in (False,) if args.in_process_only or row in alone else (False, True):
            cmd = [sys.executable, "-m", "benchmarks.speed.engines", "--row", row]
            cmd += ["--num-docs", str(args.num_docs), "--batch-size", str(args.batch_size)]
            cmd += ["--config", args.config, "--dp-model", args.dp_model, "--first", first or "0"]
            cmd += ["--served"] if served else []
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            result = json.loads(out.strip().splitlines()[-1])
            backend, dtype = row.split(":")
            rate = rates[rate_type(dtype)]
            result |= {
                "backend": backend,
                "dtype": dtype,
                "tickets": int(first or len(docs)),
                "mode": "served" if served else "in-process",
                "roofline_share": round(2 * count * result["tokens_per_s"] / (rate * 1e9), 4),
                "roofline_share_processed": round(
                    2 * count * result["processed_tokens_per_s"] / (rate * 1e9), 4
                ),
            }
            rows.append(result)
            print(f"{row} {result['mode']}: {result['tokens_per_s']} tokens/s", flush=True)
    # The baseline: the default before llama.cpp (HF, bf16 or float32 by the CPU).
    base = next((r for r in rows if r["backend"] == "hf" and r["mode"] == "in-process"), rows[0])
    for r in rows:
        r["tokens_per_s_over_hf"] = round(r["tokens_per_s"] / base["tokens_per_s"], 2)
        r["tickets_per_s_over_hf"] = round(r["tickets_per_s"] / base["tickets_per_s"], 2)
    result = {
        "cpu": cpu,
        "date": time.strftime("%Y-%m-%d"),
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
    print(f"\nCPU: {cpu['name']} ({cpu['kind']}, {', '.join(cpu['flags'])})")
    head = f"{'engine':<26}{'tickets':>8}{'tokens/s':>10}{'tickets/s':>11}{'× HF':>7}"
    print(head + f"{'peak MB':>9}{'seconds':>9}{'roofline':>10}")
    for r in rows:
        name = f"{r['backend']} {r['dtype']} {r['mode']}"
        print(
            f"{name:<26}{r['tickets']:>8}{r['tokens_per_s']:>10}{r['tickets_per_s']:>11}"
            f"{r['tickets_per_s_over_hf']:>7}{r['peak_rss_mb']:>9}{r['seconds']:>9}"
            f"{r['roofline_share_processed']:>10}"
        )
    runs = json.loads(RESULTS.read_text()).get("runs", {}) if RESULTS.exists() else {}
    key = cpu["kind"] + ("-emulated" if cpu["emulated"] else "")
    if args.merge and key in runs:  # rows of an earlier run on this CPU, not rerun now
        ran = {(r["backend"], r["dtype"], r["mode"]) for r in rows}
        kept = [r for r in runs[key]["rows"] if (r["backend"], r["dtype"], r["mode"]) not in ran]
        result["rows"] = rows = rows + kept
        base = next(r for r in rows if r["backend"] == "hf" and r["mode"] == "in-process")
        for r in rows:
            r["tokens_per_s_over_hf"] = round(r["tokens_per_s"] / base["tokens_per_s"], 2)
            r["tickets_per_s_over_hf"] = round(r["tickets_per_s"] / base["tickets_per_s"], 2)
        result["merged_from"] = runs[key].get("date")
        result["matmul_gops"] = {**runs[key].get("matmul_gops", {}), **result["matmul_gops"]}
    runs[key] = result
    write_results(RESULTS.name, {"runs": runs})
    return result


def rate_type(dtype: str) -> str:
    """The matmul rate a row's engine runs at: int8 for int8 types and llama.cpp's
    quantised GGUF (int8 dot products; `llama:Q8_0` is the embedded GGUF requantised),
    else the float type itself."""
    return "int8" if dtype.startswith(("int8", "Q")) or dtype == "auto" else dtype


RATES = {
    "float32": lambda: matmul_gflops(torch.float32),
    "bfloat16": lambda: matmul_gflops(torch.bfloat16),
    "float16": lambda: matmul_gflops(torch.float16),
    "int8": lambda: int8_gops(),
}


if __name__ == "__main__":
    main()
