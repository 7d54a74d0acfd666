"""Where the engines spend their time: py-spy profiles of the same tickets rendered by the
in-process engine and by `hrsynth serve` behind the OpenAI engine, summarised by category.

    pip install py-spy==0.4.3          # a profiler, not a dependency of hrsynth
    python -m jobs.serve --name bench --port 8011 --max-batch 64 --wait-ms 50 &
    python -m benchmarks.speed.engines_profile drive served & \\
        py-spy record -p SERVER_PID -r 50 -f raw -o served.raw --nonblocking -d 90
    py-spy record -r 50 -f raw -o inproc.raw --nonblocking -- \\
        python -m benchmarks.speed.engines_profile drive in-process
    python -m benchmarks.speed.engines_profile summarise inproc.raw served.raw

Result: benchmarks/results/engines_profile.txt (quoted in the README). Alone on the machine.
"""

import sys
from collections import Counter

CATEGORIES = (  # first match wins, tested on each sample's whole stack
    ("model loading", ("load_model", "from_pretrained")),
    ("model forward (prefill + decode)", ("forward (",)),
    ("our sampling loop, outside forward", ("decode.py",)),
    ("tokenizer", ("tokeniz", "batch_decode")),
    ("HTTP + JSON", ("http", "socketserver", "json", "requests", "urllib3")),
    ("rollout, trimming, rendering", ("rollout.py", "trimming.py", "render.py")),
)


def category(stack: str) -> str:
    return next((name for name, marks in CATEGORIES if any(m in stack for m in marks)), "other")


def summarise(path: str) -> dict[str, float]:
    counts = Counter()
    with open(path) as f:
        for line in f:
            stack, n = line.rstrip().rsplit(" ", 1)
            counts[category(stack)] += int(n)
    counts.pop("model loading", None)
    total = sum(counts.values())
    return {name: n / total for name, n in counts.most_common()}


def drive(engine_kind: str, num_docs: int = 64) -> dict:
    from benchmarks.speed.generation import timed
    from synth.config.generate import load_config
    from synth.kinds import plan_documents

    cfg = load_config(
        "configs/tickets.yaml",
        {
            "num_docs": num_docs,
            "dp_model": "out/absence_model.json",
            "reference_date": "2026-11-22",
        },
    )
    docs, _ = plan_documents(cfg, "engines")
    if engine_kind == "served":
        from synth.generation.openai_engine import OpenAIEngine

        engine = OpenAIEngine(
            "openai:bench", {"base_url": "http://127.0.0.1:8011/v1", "concurrency": num_docs}
        )
    else:
        from synth.generation.hf_engine import HFEngine

        engine = HFEngine(cfg.generator.model, cfg.generator.device, cfg.generator.dtype)
    return timed(docs, engine, cfg.generation_params(), "plain", num_docs)


if __name__ == "__main__":
    if sys.argv[1] == "drive":
        print(drive(sys.argv[2]))
    else:
        for path in sys.argv[2:]:
            print(path)
            for name, share in summarise(path).items():
                print(f"  {name:<40}{share:6.1%}")
