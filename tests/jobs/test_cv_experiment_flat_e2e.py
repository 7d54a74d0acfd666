"""docs/cvs.md "Your own CV corpus" on a corpus like a job-board scrape: CSV, one flat
block of text per CV (no line breaks), IT roles, more CVs than the run needs. Our own
flat CVs (tests/data/cvs_flat.jsonl, written by us), run as the docs say, from another
folder: real extraction, DP fit, SmolLM2 generation on a local Ray cluster, fastText."""

import csv
import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from tests.conftest import ROOT

TITLES = {
    "Database Administrator": "database administrator",
    "Front End Developer": "front-end developer",
    "Java Developer": "Java developer",
    "Network Administrator": "network administrator",
    "Project Manager": "IT project manager",
    "Python Developer": "Python developer",
    "Security Analyst": "security analyst",
    "Software Developer": "software developer",
    "Systems Administrator": "systems administrator",
    "Web Developer": "web developer",
}


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    out = tmp_path_factory.mktemp("cv_flat")
    records = [json.loads(line) for line in (ROOT / "tests/data/cvs_flat.jsonl").open()]
    assert all("\n" not in r["text"] for r in records)  # flat, as scraped
    corpus = out / "Resume.csv"
    with corpus.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["Category", "Resume"])  # the scrape's own column names
        writer.writerows([r["label"], r["text"]] for r in records)
    roles = out / "roles.yaml"
    roles.write_text("".join(f"{role}: {title}\n" for role, title in TITLES.items()))
    command = (
        "--corpus Resume.csv --roles roles.yaml --output run --epsilons 1 --num-docs 10 "
        "--per-role 3 --as-of 2024 --rows real,synthetic --skip-encoder --permutations 0"
        # short sections: the docs' command checks the pipeline, not the CVs' length
        f" --config {ROOT / 'tests/data/cvs_quick.yaml'}"
    )
    result = subprocess.run(
        [sys.executable, "-m", "jobs.cv_experiment", *command.split()],
        cwd=out,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return out / "run"


def test_the_flat_corpus_is_subsampled_and_split_by_role(experiment):
    corpus = json.loads((experiment / "table.json").read_text())["corpus"]
    # 31 CVs, Database Administrator has 4: at most 3 per role, one of each role tested
    assert (corpus["cvs_in_corpus"], corpus["cvs"], corpus["per_role"]) == (31, 30, 3)
    assert (corpus["train"], corpus["test"], corpus["roles"]) == (20, 10, 10)
    assert "at most 3 per role, of 31 in the corpus" in (experiment / "table.md").read_text()


def test_flat_cvs_yield_their_jobs_and_degrees(experiment):
    """Read as one line, these CVs gave 9 % of their employers and a fifth of their
    universities; read as lines, every training CV has a job with its years and a degree."""
    rows = list(csv.DictReader((experiment / "table.csv").open()))
    assert len(rows) == 20
    assert all(int(r["years_1"]) > 0 and r["company_1"] != "none" for r in rows), rows
    assert all(r["university_1"] != "none" and r["degree_1"] != "none" for r in rows), rows
    assert all(2 <= int(r["total_years"]) <= 16 for r in rows), rows


def test_synthetic_cvs_use_the_users_roles_and_both_rows_score(experiment):
    rows = pq.read_table(experiment / "synthetic_eps1").to_pylist()
    assert len(rows) == 10 and {r["label"] for r in rows} == set(TITLES)  # balanced: one each
    for r in rows:
        roles = [e["value"] for e in r["entities"] if e["label"] == "role"]
        assert r["error"] or roles == [TITLES[r["label"]]] * len(roles) and roles, r["entities"]
    table = json.loads((experiment / "table.json").read_text())
    assert [r["condition"] for r in table["rows"]] == ["real", "synthetic ε=1"]
    assert all(0 <= r["scores"]["fastText"] <= 1 for r in table["rows"])
