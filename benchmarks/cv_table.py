"""Table 2 of a CV experiment with its synthetic rows replaced by evaluate runs made by hand.

    python -m benchmarks.cv_table --experiment out/cv_dev64 \
        --row "synthetic ε=1=out/cv_dev256/eval/synthetic_eps1,out/cv_dev256/eval/intrinsic" \
        --output benchmarks/results/cv_experiment_256

Why: more synthetic CVs per ε changes only the rows trained on synthetic data; the real,
real-masked and random-baseline rows of the same split and settings stay valid, and the
random baseline alone costs ten encoder trainings. The experiment's rows whose name
contains "synthetic" are dropped unless a --row of the same name replaces them; a --row
may name several evaluate outputs (comma-separated) whose tasks are merged, the first
giving the document count. Writes table.md and table.json like `hrsynth cv-experiment`.
"""

import argparse
import json
from pathlib import Path

from jobs.cv_experiment import table_row, write_table


def parse_row(text: str) -> tuple[str, list[Path]]:
    name, sep, folders = text.rpartition("=")
    if not sep or not name:
        raise SystemExit(f"--row {text!r}: expected 'condition=folder[,folder…]'")
    paths = [Path(f) / "metrics.json" for f in folders.split(",")]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"--row {name!r}: no evaluate output at {', '.join(missing)}")
    return name, paths


def merged_result(paths: list[Path]) -> tuple[dict, dict]:
    """(first run's metrics with every run's tasks, first run's config)."""
    results = [json.loads(p.read_text()) for p in paths]
    tasks = {}
    for r in results:
        tasks |= r["tasks"]
    return {**results[0], "tasks": tasks}, results[0]["config"]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--experiment", required=True, help="a cv-experiment output folder")
    p.add_argument("--row", action="append", default=[], help="'condition=folder[,folder…]'")
    p.add_argument("--output", required=True)
    args = p.parse_args(argv)
    base = json.loads(Path(args.experiment, "table.json").read_text())
    replaced = {}
    for text in args.row:
        name, paths = parse_row(text)
        result, config = merged_result(paths)
        replaced[name] = table_row(name, result, []) | {"evaluate_config": config}
    rows = [replaced.pop(r["condition"], r) for r in base["rows"]
            if r["condition"] in replaced or "synthetic" not in r["condition"]]
    # The experiment's settings and wall time describe its own synthetic rows: the settings
    # are kept under another name, and each replacement row carries its evaluate config.
    summary = {**{k: v for k, v in base.items() if k not in ("settings", "wall_s")},
               "rows": rows + list(replaced.values()), "reused_from": args.experiment,
               "experiment_settings": base.get("settings")}
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    write_table(out, summary)
    print((out / "table.md").read_text())


if __name__ == "__main__":
    main()
