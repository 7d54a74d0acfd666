"""PrivBayes side by side: hrsynth vs DataSynthesizer, same data, same discretisation.

For each dataset × ε × seed × tool: fit with degree 2, sample as many rows as the data
has, and score the mean total variation distance over all 2-way marginals (synthetic vs
real), fit time, peak memory of the fitting process, and ε actually spent (for
DataSynthesizer including the uncounted full-ε pass it makes before the network).

Tools: `hrsynth` (defaults: θ-useful parent sets of at most k = 2), `hrsynth-theta-off`
(exactly k = 2 parents wherever possible, as DataSynthesizer does) and `datasynthesizer`.
Data: the UCI Absenteeism table (demo schema, numeric columns in its public bins) and a
wide table of 50,000 × 30 sampled from a known random Bayesian network.
DataSynthesizer runs in its own environment: `make bench-env` creates .venv-bench. It
takes hours per fit on the wide table, so there it runs `--ds-wide-seeds` seeds at
`--ds-wide-epsilons`; every finished run is kept in --work (default
/tmp/hrsynth-privbayes-bench) and reused, so an interrupted benchmark resumes.

    python -m benchmarks.privacy.privbayes [--seeds 10] [--epsilons 0.1 1 10] [--scale]

Writes benchmarks/results/privbayes.json (merged by dataset × tool × ε) and prints a table.
"""

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.report import RESULTS_DIR, ROOT, write_results
from synth.dp.schema import encode, load_schema

RESULTS = RESULTS_DIR / "privbayes.json"
PYTHON = {
    "hrsynth": sys.executable,
    "hrsynth-theta-off": sys.executable,
    "datasynthesizer": str(ROOT / ".venv-bench/bin/python"),
}


def absenteeism() -> tuple[np.ndarray, list[int]]:
    schema = load_schema(ROOT / "configs/absenteeism_schema.yaml")
    table = pd.read_csv(ROOT / "data/demo/absenteeism.csv", sep=schema.separator)
    codes, _ = encode(table, schema)
    return codes, [a.size for a in schema.attributes]


def random_network(n: int, d: int, seed: int, max_parents: int = 2):
    """n rows from a random discrete Bayesian network (sizes 2–6, ≤ 2 parents each)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 7, size=d).tolist()
    codes = np.zeros((n, d), dtype=np.int64)
    for i in range(d):
        parents = (
            list(rng.choice(i, size=min(i, int(rng.integers(1, max_parents + 1))), replace=False))
            if i
            else []
        )
        index = np.zeros(n, dtype=np.int64)
        for p in parents:
            index = index * sizes[p] + codes[:, p]
        configs = int(np.prod([sizes[p] for p in parents])) if parents else 1
        table = rng.dirichlet([0.5] * sizes[i], size=configs)
        cumulative = table.cumsum(axis=1)[index]
        codes[:, i] = np.minimum((cumulative < rng.random((n, 1))).sum(axis=1), sizes[i] - 1)
    return codes, sizes


def mean_pairwise_tvd(real: np.ndarray, synthetic: np.ndarray, sizes: list[int]) -> float:
    synthetic = np.clip(synthetic, 0, np.array(sizes) - 1)
    out = []
    for i, j in itertools.combinations(range(len(sizes)), 2):
        cells = sizes[i] * sizes[j]
        p = np.bincount(real[:, i] * sizes[j] + real[:, j], minlength=cells) / len(real)
        q = np.bincount(synthetic[:, i] * sizes[j] + synthetic[:, j], minlength=cells) / len(
            synthetic
        )
        out.append(0.5 * np.abs(p - q).sum())
    return float(np.mean(out))


def run_tool(tool: str, codes, sizes, eps, seed, k, folder: Path, dataset: str) -> dict:
    """One fit + sample in a fresh process; a finished run found in `folder` is reused."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{dataset}.csv"
    if not path.exists():
        names = [f"a{i}:{s}" for i, s in enumerate(sizes)]
        pd.DataFrame(codes, columns=names).to_csv(path, index=False)
    out = folder / f"{tool}-{dataset}-{eps}-{seed}.csv"
    stats_file = out.with_suffix(".json")
    if not stats_file.exists():
        result = subprocess.run(
            [
                PYTHON[tool],
                str(ROOT / "benchmarks/privacy/privbayes_runner.py"),
                tool,
                str(path),
                str(eps),
                str(seed),
                str(k),
                str(len(codes)),
                str(out),
            ],
            cwd=ROOT,
            check=False,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{tool} failed: {result.stderr[-1500:]}")
        stats_file.write_text(result.stdout.strip().splitlines()[-1])
    stats = json.loads(stats_file.read_text())
    synthetic = pd.read_csv(out).to_numpy(np.int64)
    return {**stats, "tvd": mean_pairwise_tvd(codes, synthetic, sizes)}


def record(name, codes, sizes, tool, eps, runs) -> dict:
    tvd = [r["tvd"] for r in runs]
    return {
        "dataset": name,
        "rows": len(codes),
        "attributes": len(sizes),
        "tool": tool,
        "epsilon": eps,
        "degree": 2,
        "seeds": len(runs),
        "tvd_mean": float(np.mean(tvd)),
        "tvd_sd": float(np.std(tvd)),
        "fit_s": float(np.mean([r["fit_s"] for r in runs])),
        "peak_mb": float(max(r["peak_mb"] for r in runs)),
        "epsilon_spent": float(max(r["epsilon_spent"] for r in runs)),
    }


def main(argv=None) -> list[dict]:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--epsilons", type=float, nargs="+", default=[0.1, 1.0, 10.0])
    p.add_argument("--tools", nargs="+", default=list(PYTHON))
    p.add_argument("--datasets", nargs="+", default=["absenteeism", "wide_50k_30"])
    p.add_argument(
        "--ds-wide-seeds",
        type=int,
        default=1,
        help="DataSynthesizer seeds on the wide table (hours per fit)",
    )
    p.add_argument("--ds-wide-epsilons", type=float, nargs="+", default=[1.0])
    p.add_argument("--scale", action="store_true", help="also fit 1,000,000 × 20 at k = 2")
    p.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "hrsynth-privbayes-bench",
        help="finished runs, reused on a rerun",
    )
    args = p.parse_args(argv)
    data = {"absenteeism": absenteeism, "wide_50k_30": lambda: random_network(50_000, 30, 0)}
    records = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
    rows = []
    for name in args.datasets:
        codes, sizes = data[name]()
        for eps, tool in itertools.product(args.epsilons, args.tools):
            seeds = args.seeds
            if tool == "datasynthesizer" and name.startswith("wide"):
                if eps not in args.ds_wide_epsilons:
                    continue
                seeds = args.ds_wide_seeds
            runs = [run_tool(tool, codes, sizes, eps, s, 2, args.work, name) for s in range(seeds)]
            rows.append(record(name, codes, sizes, tool, eps, runs))
            print(json.dumps(rows[-1]), flush=True)
    if args.scale:
        codes, sizes = random_network(1_000_000, 20, 1)
        r = run_tool("hrsynth", codes, sizes, 1.0, 0, 2, args.work, "scale_1m_20")
        rows.append(record("scale_1m_20", codes, sizes, "hrsynth", 1.0, [r]))
        print(json.dumps(rows[-1]), flush=True)
    fresh = {(r["dataset"], r["tool"], r["epsilon"]) for r in rows}
    merged = [r for r in records if (r["dataset"], r["tool"], r["epsilon"]) not in fresh] + rows
    merged.sort(key=lambda r: (r["dataset"], r["epsilon"], r["tool"]))
    write_results(RESULTS.name, merged, indent=1)
    print_table(merged)
    return rows


def print_table(records: list[dict]) -> None:
    print(
        f"\n{'dataset':<13}{'tool':<19}{'ε':>6}{'seeds':>6}{'TVD mean ± sd':>18}{'fit s':>10}"
        f"{'peak MB':>9}{'ε spent':>9}"
    )
    for r in records:
        print(
            f"{r['dataset']:<13}{r['tool']:<19}{r['epsilon']:>6}{r['seeds']:>6}"
            f"{r['tvd_mean']:>11.4f} ± {r['tvd_sd']:.4f}{r['fit_s']:>10.2f}"
            f"{r['peak_mb']:>9.0f}{r['epsilon_spent']:>9.3g}"
        )


if __name__ == "__main__":
    main()
