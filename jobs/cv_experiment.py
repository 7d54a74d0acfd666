"""The synthetic-CV paper's role-classification experiment (docs/references.md), end to
end, as one job.

    python -m jobs.cv_experiment --corpus cvs.csv --output out/cv_experiment \
        [--epsilons 0.1,1,10,10000] [--num-docs 100] [--permutations 10]

Steps, each through the ordinary jobs (nothing forked): split the real corpus
(duplicates dropped, stratified by role, seeded) into train and test; `extract` the
attribute table from the real training CVs; per ε, `fit` the DP network and `generate`
CVs with configs/cvs.yaml; then `evaluate --doc-type cv` for every row of the paper's
Table 2: real, synthetic per ε, real + synthetic, role mentions masked, and the random
baseline (labels permuted). Writes table.md and table.json (weighted F1, fastText and
encoder) beside each run's own metrics.

The output folder holds the private split (train.jsonl, test.jsonl, table.csv): keep it
where the corpus may live. table.md/json hold scores only.
"""

import hashlib
import json
import sys
import time
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

import numpy as np

from eval.cv_table import table_markdown, table_row, write_table
from jobs import evaluate, extract, fit, generate
from jobs.entry import main_for
from synth import ConfigError
from synth.config.evaluate_options import CVExperimentOptions, EvaluateOptions
from synth.config.generate_options import GenerateOptions
from synth.config.options import options_from
from synth.config.private_options import ExtractOptions, FitOptions
from synth.io.storage import write_text


def split(cvs, test_share: float, seed: int, per_role: int | None = None):
    """Stratified by role: each role with ≥ 2 CVs puts at least one on each side. With
    `per_role`, each role's first `per_role` CVs of its random order are used, the rest
    left out (a stratified subsample, drawn by the same seed)."""
    rng = np.random.default_rng(seed)
    by_role = defaultdict(list)
    for cv in cvs:
        by_role[cv.role].append(cv)
    train, test = [], []
    for role in sorted(by_role):
        group = [by_role[role][i] for i in rng.permutation(len(by_role[role]))][:per_role]
        k = min(max(1, round(len(group) * test_share)), len(group) - 1) if len(group) > 1 else 0
        test += group[:k]
        train += group[k:]
    return train, test


def _write_jsonl(path: Path, cvs) -> None:
    write_text(
        str(path), "".join(json.dumps({"text": c.text, "label": c.role}) + "\n" for c in cvs)
    )


def _sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _fit_once(out: Path, eps: float, args: CVExperimentOptions, schema: Path) -> Path:
    """The ε model, fitted unless this folder holds one fitted on the same table and schema.

    Every fit draws fresh noise: refitting on a rerun would be a second release of the
    same rows (ε spent twice) and would make `generate` refuse its half-written folder,
    whose fingerprint names the model. The record beside the model hashes the private
    table, so it stays in this (private) folder like the table itself.
    """
    model = out / f"model_eps{eps:g}.json"
    record = out / f"model_eps{eps:g}.fitted.json"
    key = {
        "epsilon": eps,
        "seed": args.seed,
        "table_sha256": _sha256(out / "table.csv"),
        "schema_sha256": _sha256(schema),
    }
    if args.on_out_of_domain != "error":  # absent at the default: older records still match
        key["on_out_of_domain"] = args.on_out_of_domain
    if model.is_file() and record.is_file() and json.loads(record.read_text()) == key:
        print(f"reusing {model}: fitted on this table and schema by an earlier run", flush=True)
        return model
    fit.run(
        FitOptions(
            data=str(out / "table.csv"),
            schema=str(schema),
            epsilon=eps,
            output=str(model),
            seed=args.seed,
            on_out_of_domain=args.on_out_of_domain,
        )
    )
    write_text(str(record), json.dumps(key))
    return model


def _floats(text: str | None, default: list[float]) -> list[float]:
    if text is None:
        return default
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"expected comma-separated numbers, got {text!r}") from None


OPTIONS = CVExperimentOptions


def run(options) -> dict:
    from jobs.cv_inputs import corpus_with_roles, out_of_range_counts, parse_rows, prepare

    args = options_from(CVExperimentOptions, options)
    started = time.time()
    epsilons, combined, masked = _epsilon_lists(args)
    wanted = parse_rows(args.rows)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    inputs = prepare(args, out)  # every file found and checked before extraction
    cvs, left_out = corpus_with_roles(args, inputs.roles)
    train, test = _split_and_extract(args, cvs, out)
    clipped = out_of_range_counts(out / "table.csv", inputs.schema)
    synthetic = _synthetic_sets(args, inputs, out, epsilons)
    conditions = _conditions(args, inputs, out, synthetic, epsilons, combined, masked)
    conditions = [(name, *rest) for name, kind_, *rest in conditions if kind_ in wanted]
    summary = {
        "corpus": {
            "path": str(args.corpus),
            "cvs": len(train) + len(test),
            "cvs_in_corpus": len(cvs),
            "per_role": args.per_role,
            "train": len(train),
            "test": len(test),
            "roles": len({c.role for c in train + test}),
            "role_list": len(inputs.roles),
            "cvs_outside_role_list": left_out,
            "values_out_of_range": clipped,
        },
        "settings": asdict(args),
        "rows": [None] * len(conditions),
    }
    _run_rows(args, out, conditions, summary, started)
    print(table_markdown(summary))
    return summary


def _epsilon_lists(args) -> tuple[list, list, list]:
    epsilons = _floats(args.epsilons, [])
    combined = _floats(args.combined_epsilons, [])
    masked = _floats(args.masked_epsilons, epsilons)
    if not epsilons or any(e not in epsilons for e in combined + masked):
        raise ConfigError("--combined-epsilons and --masked-epsilons must be among --epsilons")
    return epsilons, combined, masked


def _split_and_extract(args, cvs, out: Path) -> tuple[list, list]:
    """The stratified split written as train.jsonl and test.jsonl, and the attribute
    table extracted from the training side only (what fit reads)."""
    train, test = split(cvs, args.test_share, args.seed, args.per_role)
    if len({c.role for c in test}) < 2:
        raise ConfigError(
            f"--corpus {args.corpus}: the test split has fewer than 2 roles; give more CVs per role"
        )
    _write_jsonl(out / "train.jsonl", train)
    _write_jsonl(out / "test.jsonl", test)
    extract.run(
        ExtractOptions(
            corpus=str(out / "train.jsonl"),
            output=str(out / "table.csv"),
            min_count=args.min_count,
            as_of=args.as_of,
        )
    )
    return train, test


def _synthetic_sets(args, inputs, out: Path, epsilons: list) -> dict:
    """ε -> the folder of CVs generated from a DP model fitted at that ε."""
    synthetic = {}
    for eps in epsilons:
        model, folder = _fit_once(out, eps, args, inputs.schema), out / f"synthetic_eps{eps:g}"
        generate.run(
            GenerateOptions(
                config=str(inputs.config),
                dp_model=str(model),
                num_docs=args.num_docs,
                output=str(folder),
                seed=args.seed,
            )
        )
        synthetic[eps] = folder
    return synthetic


def _conditions(args, inputs, out: Path, synthetic, epsilons, combined, masked) -> list:
    """The table's rows in the synthetic-CV paper's order: (name, kind, training sources, settings)."""
    tasks = "fasttext" if args.skip_encoder else "fasttext,classify"
    real = str(out / "train.jsonl")
    mask = {"mask_roles": True, "taxonomy_dir": inputs.taxonomy_dir}
    conditions = [("real", "real", [real], {})]
    conditions += [
        (f"synthetic ε={e:g}", "synthetic", [str(synthetic[e])], {"tasks": f"{tasks},intrinsic"})
        for e in epsilons
    ]
    conditions += [
        (f"real + synthetic ε={e:g}", "combined", [real, str(synthetic[e])], {}) for e in combined
    ]
    conditions += [("real, roles masked", "masked-real", [real], mask)]
    conditions += [
        (f"synthetic ε={e:g}, roles masked", "masked-synthetic", [str(synthetic[e])], mask)
        for e in masked
    ]
    baseline = {"permutations": args.permutations, "epochs": args.baseline_epochs or args.epochs}
    conditions += [("random baseline (labels permuted)", "random", [real], baseline)]
    return conditions


def _run_rows(args, out: Path, conditions: list, summary: dict, started: float) -> None:
    """Each row's evaluation (a finished one is read back); the table is rewritten after
    every row, so an interrupted run still leaves what it finished."""
    common = {
        "test": str(out / "test.jsonl"),
        "doc_type": "cv",
        "epochs": args.epochs,
        "lr": args.lr,
        "base_model": args.base_model,
        "seed": args.seed,
        "tasks": "fasttext" if args.skip_encoder else "fasttext,classify",
    }
    # The cheap-and-central rows first; the table keeps the paper's order.
    order = sorted(range(len(conditions)), key=lambda k: ("masked" in conditions[k][0], k))
    for k in order:
        name, sources, settings = conditions[k]
        row = EvaluateOptions(
            **{**common, **settings}, train=sources, output=str(out / "eval" / f"{k:02d}")
        )
        result = _finished(row) or evaluate.run(row)
        summary["rows"][k] = table_row(name, result)
        summary["wall_s"] = round(time.time() - started, 1)
        write_table(out, summary)
        print(
            f"[{name}] "
            + ", ".join(f"{c} {v:.3f}" for c, v in summary["rows"][k]["scores"].items()),
            flush=True,
        )


# Settings that make two evaluate runs the same row (the output folder is the row's own).
ROW_KEYS = (
    "train",
    "test",
    "tasks",
    "doc_type",
    "epochs",
    "lr",
    "batch_size",
    "seed",
    "base_model",
    "mask_roles",
    "taxonomy_dir",
    "permutations",
    "num_workers",
)


def _finished(row: EvaluateOptions) -> dict | None:
    """A row's earlier result, when its folder holds metrics of the very same settings.

    An interrupted experiment rerun with the same arguments skips the rows it finished
    instead of training them again; a changed setting retrains the row.
    """
    args = asdict(row)
    path = Path(args["output"], "metrics.json")
    if not path.is_file():
        return None
    done = json.loads(path.read_text())
    same = all(
        json.dumps(done["config"].get(k), default=str) == json.dumps(args[k], default=str)
        for k in ROW_KEYS
    )
    return done if same else None


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "cv-experiment", argv)


if __name__ == "__main__":
    sys.exit(main())
