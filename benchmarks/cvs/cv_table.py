"""Table 2 of a CV experiment with its synthetic rows replaced by evaluate runs made by hand.

    python -m benchmarks.cvs.cv_table --experiment out/cv_dev64 \
        --row "synthetic ε=1=out/cv_dev256/eval/synthetic_eps1,out/cv_dev256/eval/intrinsic" \
        --output benchmarks/results/cv_experiment_256

Why: more synthetic CVs per ε changes only the rows trained on synthetic data; the real,
real-masked and random-baseline rows of the same split and settings stay valid, and the
random baseline alone costs ten encoder trainings. The experiment's rows whose name
contains "synthetic" are dropped unless a --row of the same name replaces them; a --row
may name several evaluate outputs (comma-separated) whose tasks are merged, the first
giving the document count. Writes table.md and table.json like `hrsynth cv-experiment`,
plus, per synthetic row, how its CVs spread over the roles (from its manifest): at small ε
that spread, not ε itself, is what moves the scores.
"""

import argparse
import json
from pathlib import Path

from eval.cv_table import table_row, write_table


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


def role_spread(result: dict, roles: int) -> dict | None:
    """Roles drawn and the fewest/most CVs of one role, for a purely synthetic training set."""
    counts = (result["train"].get("manifest") or {}).get("rows_per_label")
    if not counts or result["train"]["documents"] != sum(counts.values()):
        return None
    return {
        "roles_drawn": len(counts),
        "roles": roles,
        "fewest": min(counts.values()) if len(counts) == roles else 0,
        "most": max(counts.values()),
    }


def spread_markdown(rows: list[dict]) -> str:
    lines = [
        "",
        "| synthetic set | roles drawn | fewest CVs of a role | most |",
        "| --- | ---: | ---: | ---: |",
    ]
    for r in rows:
        if r.get("role_spread"):
            s = r["role_spread"]
            lines.append(
                f"| {r['condition']} | {s['roles_drawn']} of {s['roles']} | "
                f"{s['fewest']} | {s['most']} |"
            )
    return "\n".join(lines) + "\n" if len(lines) > 3 else ""


def _per_role_from_evaluations(experiment: Path, row: dict) -> dict:
    """The row's per-role F1 from the experiment's evaluate output whose encoder score is
    the row's (eval/NN numbers skip the rows not run, so they are matched by score)."""
    for metrics in sorted(experiment.glob("eval/*/metrics.json")):
        result = json.loads(metrics.read_text())
        classify = result["tasks"].get("classify", {})
        if classify.get("weighted_f1") == row["scores"].get("encoder"):
            return {k: v for k, v in table_row(row["condition"], result).items() if "per_role" in k}
    return {}


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
        replaced[name] = table_row(name, result) | {
            "evaluate_config": config,
            "role_spread": role_spread(result, base["corpus"]["roles"]),
        }
    for row in base["rows"]:  # tables written before the rows kept their per-role F1
        if "encoder_f1_per_role" not in row and "encoder_sd" not in row:
            row.update(_per_role_from_evaluations(Path(args.experiment), row))
    rows = [
        replaced.pop(r["condition"], r)
        for r in base["rows"]
        if r["condition"] in replaced or "synthetic" not in r["condition"]
    ]
    # The experiment's settings and wall time describe its own synthetic rows: the settings
    # are kept under another name, and each replacement row carries its evaluate config.
    summary = {
        **{k: v for k, v in base.items() if k not in ("settings", "wall_s")},
        "rows": rows + list(replaced.values()),
        "reused_from": args.experiment,
        "experiment_settings": base.get("settings"),
    }
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    write_table(out, summary)
    with (out / "table.md").open("a") as md:
        md.write(spread_markdown(summary["rows"]))
    print((out / "table.md").read_text())


if __name__ == "__main__":
    main()
