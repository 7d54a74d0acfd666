"""The CV experiment end to end on our tiny hand-written corpus: real extraction, DP
fit, SmolLM2 generation on a local Ray cluster, MiniLM and fastText evaluation."""

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from synth.contract import check_row
from tests.conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    out = tmp_path_factory.mktemp("cv_experiment")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "jobs.cv_experiment",
            "--corpus",
            "tests/data/cvs_small.jsonl",
            "--schema",
            "tests/data/cv_small_schema.yaml",
            "--output",
            str(out),
            "--epsilons",
            "1",
            "--num-docs",
            "8",
            "--permutations",
            "2",
            "--epochs",
            "1",
            "--as-of",
            "2024",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def test_generated_cvs_meet_the_output_contract(experiment):
    folder = experiment / "synthetic_eps1"
    rows = pq.read_table(folder).to_pylist()
    assert len(rows) == 8
    for r in rows:
        assert r["doc_type"] == "cv" and check_row(r) == [], check_row(r)
        assert r["label"] in {"Civil Engineer", "Data Science", "HR", "Java Developer", "Sales"}
        assert {e["label"] for e in r["entities"]} <= {
            "role",
            "total_years",
            "university",
            "degree",
            "company",
            "years",
        }
        assert len(r["text"].split()) > 60  # six sections of generated text
    manifest = json.loads((folder / "_manifest.json").read_text())
    (ledger,) = manifest["epsilon_ledgers"].values()
    assert ledger["spent"] <= 1.0 and ledger["budget"] == 1.0
    assert sum(e["purpose"].startswith("vocabulary") for e in ledger["entries"]) == 2
    assert manifest["config"]["doc_type"] == "cv"
    # configs/cvs.yaml balances the roles: 8 CVs over the 5 roles of the schema.
    assert manifest["config"]["cv_roles"] == "balanced"
    assert manifest["cv_roles"]["mode"] == "balanced"
    assert sorted(manifest["rows_per_label"].values()) == [1, 1, 2, 2, 2]


def test_every_table_row_has_both_classifiers(experiment):
    table = json.loads((experiment / "table.json").read_text())
    names = [r["condition"] for r in table["rows"]]
    assert names == [
        "real",
        "synthetic ε=1",
        "real + synthetic ε=1",
        "real, roles masked",
        "synthetic ε=1, roles masked",
        "random baseline (labels permuted)",
    ]
    for k, r in enumerate(table["rows"]):
        assert set(r["scores"]) == {"fastText", "encoder"}
        if k == 5:  # the random baseline: the mean over its permuted runs
            continue
        metrics = json.loads((experiment / "eval" / f"{k:02d}" / "metrics.json").read_text())
        assert r["scores"]["fastText"] == metrics["tasks"]["fasttext"]["weighted_f1"]
        assert r["scores"]["encoder"] == metrics["tasks"]["classify"]["weighted_f1"]
    assert table["corpus"]["train"] + table["corpus"]["test"] == 30
    assert "intrinsic" in table["rows"][1] and "np_ratio" in table["rows"][1]["intrinsic"]
    markdown = (experiment / "table.md").read_text()
    assert "| random baseline" in markdown
    assert "| metric | real test CVs | ε=1 |" in markdown and "| NP ratio |" in markdown


def test_masking_removes_role_mentions_from_training_text():
    from eval.cv_data import mask_roles

    masked = mask_roles(
        ["Experienced Java developer. Java Developers wanted. HR executive."],
        ["Java Developer", "HR"],
    )
    assert masked == ["Experienced worker. worker wanted. worker."]


def test_a_rerun_reuses_the_model_instead_of_fitting_again(tmp_path):
    """Fitting draws fresh noise: a rerun must not release (and spend ε on) the rows twice,
    and must not change the model its half-written generate folder was started with."""
    import argparse

    from jobs.cv_experiment import _fit_once

    header = (
        "role,university_1,degree_1,university_2,degree_2,university_3,degree_3,"
        "company_1,years_1,company_2,years_2,company_3,years_3,total_years\n"
    )
    row = "{},Other University,Bachelor's,none,none,none,none,Generic Company,{},none,0,none,0,{}\n"
    roles = ["Civil Engineer", "Data Science", "HR", "Java Developer", "Sales"]
    table = tmp_path / "table.csv"
    table.write_text(header + "".join(row.format(roles[i % 5], i % 7, i % 7) for i in range(40)))
    args = argparse.Namespace(schema="tests/data/cv_small_schema.yaml", seed=0)
    model = _fit_once(tmp_path, 1.0, args)
    first = model.read_bytes()
    assert _fit_once(tmp_path, 1.0, args) == model and model.read_bytes() == first
    table.write_text(table.read_text() + row.format("HR", 3, 3))  # new private rows: refit
    assert _fit_once(tmp_path, 1.0, args).read_bytes() != first
    assert json.loads(model.read_text())["ledger"]["spent"] <= 1.0
