"""Quality parity of the engines: the same planned tickets written by Hugging Face (bf16),
CTranslate2 (int8) and llama.cpp (the GGUF) at two sampling seeds each, and what the text
looks like.

Per run: rows with every declared variable located, the share of declared variables
located, rows with a slot error (an empty slot, or a free-form ticket holding none of its
variables), and the intrinsic metrics the README compares with the Ticket Generator thesis's survey
(words mean and sd, TTR-1, noun and verb ratios). A CTranslate2 line is "within the seed
spread" when its mean over its seeds differs from Hugging Face's by no more than Hugging
Face's own two seeds differ.

Planning does not depend on the CPU, so an engine may be run on another machine than the
reference: `--engines llama:auto` runs that engine only and keeps the other engines' runs
already in the results file (each run records its CPU). Hugging Face in bf16 is emulated,
and in float32 too slow for 800 tickets, on an AVX2-only CPU: its runs there come from a
CPU with AVX-512 BF16.

    python -m benchmarks.speed.engine_parity [--num-docs 400] [--seeds 0,1] [--engines hf:bfloat16,...]

In-process, no Ray; writes benchmarks/results/engine_parity.json.
"""

import argparse
import json
import time

from benchmarks.report import RESULTS_DIR, write_results
from benchmarks.speed.engines import cpu_info
from eval.intrinsic import intrinsic
from synth.config.generate import load_config
from synth.generation.backends import Backend
from synth.generation.render import render
from synth.kinds import kind, plan_documents

RESULTS = RESULTS_DIR / "engine_parity.json"
ENGINES = "hf:bfloat16,ct2:int8,llama:auto"
LINES = (
    "rows_all_variables",
    "share_variables_found",
    "rows_with_slot_error",
    "words_mean",
    "words_sd",
    "ttr_1",
    "noun_ratio",
    "verb_ratio",
)


def one_run(backend: str, dtype: str, seed: int, args) -> dict:
    cfg = load_config(
        args.config,
        {
            "num_docs": args.num_docs,
            "seed": seed,
            "dp_model": args.dp_model,
            "reference_date": "2026-11-22",
        },
    )
    docs, _ = plan_documents(cfg, f"parity{seed}")
    declared = kind(cfg.run.doc_type).declared_entities(docs, cfg)
    engine = Backend.of(cfg.generator.model, backend, "cpu", dtype).build()
    params = cfg.generation_params()
    start = time.perf_counter()
    rows = []
    for i in range(0, len(docs), args.batch_size):
        rows += render(docs[i : i + args.batch_size], engine, params, "plain", seed)
    seconds = time.perf_counter() - start
    complete = variables = found = 0
    for r in rows:
        labels = {e["label"] for e in r["entities"]}
        wanted = declared.get(r["label"], set())
        complete += wanted <= labels
        variables += len(wanted | labels)
        found += len(labels)
    texts = [r["text"] for r in rows]
    overall = intrinsic(texts, [r["label"] for r in rows])["overall"]
    return {
        "backend": backend,
        "dtype": dtype,
        "seed": seed,
        "cpu": f"{cpu_info()['name']} ({cpu_info()['kind']})",
        "rows": len(rows),
        "seconds": round(seconds, 1),
        "tokens": sum(r["generated_tokens"] for r in rows),
        "rows_all_variables": round(complete / len(rows), 4),
        "share_variables_found": round(found / max(variables, 1), 4),
        "rows_with_slot_error": round(sum(r["error"] is not None for r in rows) / len(rows), 4),
        **{k: round(overall[k], 4) for k in ("words_mean", "words_sd", "ttr_1")},
        "noun_ratio": round(overall["noun_ratio"], 4),
        "verb_ratio": round(overall["verb_ratio"], 4),
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--num-docs", type=int, default=400)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--seeds", default="0,1")
    p.add_argument("--config", default="configs/tickets.yaml")
    p.add_argument("--dp-model", default="out/absence_model.json")
    p.add_argument("--engines", default=ENGINES, help="backend:dtype pairs to run")
    args = p.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    engines = [e.split(":") for e in args.engines.split(",")]
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    same = previous.get("tickets_per_run") == args.num_docs and previous.get("seeds") == seeds
    rerun = {b for b, _ in engines}
    runs = [r for r in previous.get("runs", []) if same and r["backend"] not in rerun]
    for backend, dtype in engines:
        for seed in seeds:
            runs.append(one_run(backend, dtype, seed, args))
            print(json.dumps(runs[-1]), flush=True)
    comparison = {b: compare(runs, b) for b in sorted({r["backend"] for r in runs} - {"hf"})}
    result = {
        "config": args.config,
        "tickets_per_run": args.num_docs,
        "seeds": seeds,
        "runs": runs,
        "comparison": comparison,
    }
    for backend, lines in comparison.items():
        print(f"\n{'line':<24}{'hf (seeds)':>22}{backend + ' (seeds)':>22}{'gap':>8}{'spread':>8}")
        for line, c in lines.items():
            hf = " / ".join(f"{v:.3f}" for v in c["hf"])
            other = " / ".join(f"{v:.3f}" for v in c[backend])
            print(
                f"{line:<24}{hf:>22}{other:>22}{c['gap_of_means']:>8.3f}"
                f"{c['hf_seed_spread']:>8.3f}  {'within' if c['within_spread'] else 'outside'}"
            )
    write_results(RESULTS.name, result, indent=1)
    return result


def compare(runs: list[dict], backend: str) -> dict:
    """Per line: the engine's mean over its seeds against Hugging Face's, and whether the
    gap is within Hugging Face's own seed spread."""
    lines = {}
    for line in LINES:
        hf = [r[line] for r in runs if r["backend"] == "hf"]
        other = [r[line] for r in runs if r["backend"] == backend]
        spread = max(hf) - min(hf)
        gap = abs(sum(other) / len(other) - sum(hf) / len(hf))
        lines[line] = {
            "hf": hf,
            backend: other,
            "hf_seed_spread": round(spread, 4),
            "gap_of_means": round(gap, 4),
            "within_spread": gap <= spread,
        }
    return lines


if __name__ == "__main__":
    main()
