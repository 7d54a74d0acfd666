"""Long documents end to end on each in-process engine: CVs planned at a real corpus's
length (issue 81: 8 CVs from a DP model of the IT resumes, planned mean 1,411 words, took
17 min on CTranslate2, and the HF engine in bf16 wrote none in 8 minutes).

For each engine, in a process of its own, the config's documents are planned and
rendered as the generate job's actor does (render_fitting, one batch), without Ray.
Reports the wall time, tokens generated and per second, the prompt tokens the rows asked
for and those the engine computed afresh, each document's words against its planned
length, and on the HF engine how many rows each decoding step carried.

    python -m benchmarks.speed.long_documents --config CONFIG [--engines hf,ct2] \
        [--num-docs 8] [--timeout 1200] [--avx2] [--output long_documents.json]

CONFIG is a CV config whose dp_model was fitted on a corpus (not shipped: the IT resumes
are for measurement only). Prints a table and writes the JSON.
"""

import argparse
import json
import subprocess
import sys

from benchmarks.report import FORCED_AVX2, ROOT, print_table, write_results

ONE = r"""
import collections, json, sys, time
import torch
from synth.config.generate import load_config
from synth.generation import row_decode
from synth.generation.backends import Backend
from synth.generation.render import render_fitting
from synth.kinds import plan_documents

config, backend, num_docs = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.set_num_threads(2)
cfg = load_config(config, {"num_docs": num_docs})
docs, _ = plan_documents(cfg, "long-documents")
engine = Backend.of(cfg.generator.model, backend, "cpu", "auto").build()
rows_per_step = collections.Counter()
bucket = row_decode._Slots.bucket

def counted(self, steps):  # the rows decoding at each step (HF engine only)
    rows_per_step[int(self.decoding.sum())] += 1
    return bucket(self, steps)

row_decode._Slots.bucket = counted
start = time.perf_counter()
rows = render_fitting(docs, engine, cfg.generation_params(), "plain", cfg.run.seed)
wall = time.perf_counter() - start
print(json.dumps({
    "engine": backend,
    "describe": type(engine).__name__,
    "wall_s": round(wall, 1),
    "tokens_generated": sum(r["generated_tokens"] for r in rows),
    "tokens_prompt": sum(r["prompt_tokens"] for r in rows),
    "tokens_prefilled": getattr(engine, "prefilled_tokens", None),
    "words": [len(r["text"].split()) for r in rows],
    "planned_words": [d.target_words for d in docs],
    "rows_with_fallback": sum(bool(r["fallback_slots"]) for r in rows),
    "rows_with_error": sum(r["error"] is not None for r in rows),
    "rows_decoding_per_step": dict(sorted(rows_per_step.items())),
}))
"""


def run_engine(config: str, backend: str, num_docs: int, timeout_s: float, env: dict) -> dict:
    import os

    try:
        done = subprocess.run(
            [sys.executable, "-c", ONE, config, backend, str(num_docs)],
            cwd=ROOT,
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env={**os.environ, **env},
        )
    except subprocess.TimeoutExpired:  # what the target asks is known: it took longer
        return {"engine": backend, "wall_s": None, "did_not_finish_in_s": timeout_s}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        print(done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{backend}: exit {done.returncode}")
    result = json.loads(lines[-1])
    ratios = [w / p for w, p in zip(result["words"], result["planned_words"]) if p]
    result["tokens_per_s"] = round(result["tokens_generated"] / result["wall_s"], 1)
    result["mean_words_over_plan"] = round(sum(ratios) / len(ratios), 3) if ratios else None
    result["least_words_over_plan"] = round(min(ratios), 3) if ratios else None
    return result


COLUMNS = [
    ("engine", "engine", ""),
    ("wall_s", "wall s", ".0f"),
    ("tokens_generated", "tokens", ""),
    ("tokens_per_s", "tokens/s", ".1f"),
    ("tokens_prompt", "prompt tokens", ""),
    ("tokens_prefilled", "prefilled", ""),
    ("mean_words_over_plan", "words / plan (mean)", ".2f"),
    ("least_words_over_plan", "words / plan (least)", ".2f"),
    ("rows_with_fallback", "CVs with a fallback", ""),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True, help="a CV config with a fitted dp_model")
    parser.add_argument("--engines", default="hf,ct2")
    parser.add_argument("--num-docs", type=int, default=8)
    parser.add_argument("--output", default="long_documents.json")
    parser.add_argument("--timeout", type=float, default=1200, help="seconds per engine")
    parser.add_argument(
        "--avx2", action="store_true", help="force the AVX2 code path (torch, oneDNN, CT2)"
    )
    args = parser.parse_args()
    env = FORCED_AVX2 if args.avx2 else {}
    results = [
        run_engine(args.config, b, args.num_docs, args.timeout, env)
        for b in args.engines.split(",")
    ]
    print_table(results, COLUMNS)
    write_results(
        args.output, {"num_docs": args.num_docs, "forced_avx2": args.avx2, "results": results}
    )


if __name__ == "__main__":
    main()
