"""The CV experiment end to end on our tiny hand-written corpus: real extraction, DP
fit, SmolLM2 generation on a local Ray cluster, MiniLM and fastText evaluation."""

import json
import re
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from synth.kinds import check_row
from tests.conftest import ROOT
from tests.kept import beside

TITLES = {
    "Civil Engineer": "site engineer",
    "Data Science": "data scientist",
    "HR": None,  # no title: written as its label
    "Java Developer": "Java programmer",
    "Sales": "sales executive",
}
STATED_67 = "SUMMARY\nHR generalist with 67 years of experience in payroll and hiring.\n"


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    """A new user's corpus: labels in capitals, a label outside their role list, CVs
    stating more years than any bin, their own job titles; run from another folder."""
    out = tmp_path_factory.mktemp("cv_experiment")
    rows = [json.loads(line) for line in (ROOT / "tests/data/cvs_small.jsonl").open()]
    rows = [{"text": r["text"], "label": r["label"].upper()} for r in rows]
    rows += [{"text": STATED_67 + f"Company: Acme {k}", "label": "HR"} for k in range(3)]
    rows += [{"text": "Head chef at a bistro for 4 years.", "label": "CHEF"}]
    corpus = out / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    roles = out / "roles.yaml"
    roles.write_text("".join(f"{r}: {t or ''}\n" for r, t in TITLES.items()))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "jobs.cv_experiment",
            "--corpus",
            str(corpus),
            "--roles",
            str(roles),
            "--schema",
            "tests/data/cv_small_schema.yaml",  # found in the checkout from elsewhere
            "--output",
            str(out / "run"),
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
            "--config",  # short sections: the pipeline and contract, not the CVs' length
            str(ROOT / "tests/data/cvs_quick.yaml"),
            "--on-out-of-domain",
            "clip",
            "--rows",
            "real,synthetic,masked-synthetic,random",
        ],
        cwd=out,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    # Ray Train's cleaner warns once a second without the state API: filtered out.
    assert "Failed to query Ray Train Controller" not in result.stdout + result.stderr
    return out / "run"


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
            "graduation_year",
            "company",
            "years",
            "name",  # the owner, the city: what the personal-data detector learns
            "city",
        }
        labels = {e["label"] for e in r["entities"]}
        assert {"name", "city"} <= labels
        # graduation years are entities wherever the CV has an education section; the DP
        # row (its noise from the OS, not replayable) may hold no university at all
        assert ("graduation_year" in labels) == ("\nEDUCATION\n" in r["text"]), r["text"]
        assert len(r["text"].split()) > 60  # seven sections of generated text
    manifest = json.loads(beside(folder, "_manifest.json").read_text())
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
    assert names == [  # --rows: the real masked and real + synthetic rows were not run
        "real",
        "synthetic ε=1",
        "synthetic ε=1, roles masked",
        "random baseline (labels permuted)",
    ]
    for k, r in enumerate(table["rows"]):
        assert set(r["scores"]) == {"fastText", "encoder"}
        if k == 3:  # the random baseline: the mean over its permuted runs
            continue
        metrics = json.loads((experiment / "eval" / f"{k:02d}" / "metrics.json").read_text())
        assert r["scores"]["fastText"] == metrics["tasks"]["fasttext"]["weighted_f1"]
        assert r["scores"]["encoder"] == metrics["tasks"]["classify"]["weighted_f1"]
        per_class = metrics["tasks"]["classify"]["per_class"]
        assert r["encoder_f1_per_role"] == {role: v["f1"] for role, v in per_class.items()}
    corpus = table["corpus"]
    assert corpus["train"] + corpus["test"] == 33 and corpus["cvs_outside_role_list"] == 1
    train = [json.loads(line)["text"] for line in (experiment / "train.jsonl").open()]
    stated_67 = sum(STATED_67 in text for text in train)
    assert stated_67 >= 1 and corpus["values_out_of_range"] == {"total_years": stated_67}
    assert "intrinsic" in table["rows"][1] and "np_ratio" in table["rows"][1]["intrinsic"]
    markdown = (experiment / "table.md").read_text()
    assert "| random baseline" in markdown
    assert "| metric | real test CVs | ε=1 |" in markdown and "| NP ratio |" in markdown
    assert "| encoder F1 per role | real | synthetic ε=1 | synthetic ε=1, roles masked |" in (
        markdown
    )
    assert "random baseline" not in markdown.split("| encoder F1 per role")[1]


def test_roles_and_titles_come_from_the_users_list(experiment):
    """Labels in capitals train as the listed roles; generation and the masked rows use
    the user's titles; a model of the 67-year CVs never states more than a working life."""
    from eval.cv_data import mask_roles

    test_labels = {json.loads(line)["label"] for line in (experiment / "test.jsonl").open()}
    assert test_labels == set(TITLES)
    rows = pq.read_table(experiment / "synthetic_eps1").to_pylist()
    # every CV's opening writes its title (fixed text): each row carries the role entity
    rows = [r for r in rows if r["text"]]  # a failed row is written without text
    assert len(rows) >= len(TITLES)
    assert all(any(e["label"] == "role" for e in r["entities"]) for r in rows)
    titles = {r["label"]: e["value"] for r in rows for e in r["entities"] if e["label"] == "role"}
    assert set(titles) == {r["label"] for r in rows}
    assert all(titles[role] == (TITLES[role] or role) for role in titles)
    config = json.loads(beside(experiment / "synthetic_eps1", "_manifest.json").read_text())[
        "config"
    ]
    assert set(config["taxonomy_files"]) == {"roles.yaml"}
    masked = mask_roles(
        [r["text"] for r in rows], [r["label"] for r in rows], config["taxonomy_dir"]
    )
    mentions = [_mention(t) for t in TITLES.values() if t]
    for text in masked:  # holds for any text the model writes
        assert not any(m.search(text) for m in mentions), text
    evaluated = json.loads((experiment / "eval" / "02" / "metrics.json").read_text())["config"]
    assert evaluated["mask_roles"] and evaluated["taxonomy_dir"] == config["taxonomy_dir"]
    for r in rows:  # the opening writes the total (the model may repeat it)
        stated = [e["value"] for e in r["entities"] if e["label"] == "total_years"]
        assert stated and all(
            v == "less than a year" or 0 < int(v.split()[0]) <= 45 for v in stated
        ), stated


def _mention(title: str) -> re.Pattern:
    """A title at the start of a word, its words apart by spaces or hyphens or joined."""
    words = title.lower().replace("-", " ").split()
    return re.compile(r"(?<!\w)" + r"[\s\-]*".join(map(re.escape, words)), re.IGNORECASE)


def test_masking_removes_role_mentions_from_training_text():
    from eval.cv_data import mask_roles

    masked = mask_roles(
        [
            "Experienced Java developer. Java Developers wanted. HR executive.",
            "Responsibilities: Site engineering; a site-engineer's log; SiteEngineers.",
            "The website engineer stays (not a mention).",
        ],
        ["Java Developer", "HR", "Site Engineer"],
    )
    assert masked == [
        "Experienced worker. worker wanted. worker.",  # "HR executive": its title
        "Responsibilities: worker; a worker's log; worker.",
        "The website engineer stays (not a mention).",
    ]


def test_a_rerun_reuses_the_model_instead_of_fitting_again(tmp_path):
    """Fitting draws fresh noise: a rerun must not release (and spend ε on) the rows twice,
    and must not change the model its half-written generate folder was started with."""
    import argparse

    from jobs.cv_experiment import _fit_once

    header = (
        "role,university_1,degree_1,university_2,degree_2,university_3,degree_3,"
        "company_1,years_1,company_2,years_2,company_3,years_3,total_years,words\n"
    )
    row = (
        "{},Other University,Bachelor's,none,none,none,none,Generic Company,{},none,0,none,0,{},"
        "250\n"
    )
    roles = ["Civil Engineer", "Data Science", "HR", "Java Developer", "Sales"]
    table = tmp_path / "table.csv"
    table.write_text(header + "".join(row.format(roles[i % 5], i % 7, i % 7) for i in range(40)))
    args = argparse.Namespace(seed=0, on_out_of_domain="error")
    schema = ROOT / "tests/data/cv_small_schema.yaml"
    model = _fit_once(tmp_path, 1.0, args, schema)
    first = model.read_bytes()
    assert _fit_once(tmp_path, 1.0, args, schema) == model and model.read_bytes() == first
    table.write_text(table.read_text() + row.format("HR", 3, 3))  # new private rows: refit
    assert _fit_once(tmp_path, 1.0, args, schema).read_bytes() != first
    assert json.loads(model.read_text())["ledger"]["spent"] <= 1.0
