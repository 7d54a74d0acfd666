"""`hrsynth cv-experiment` checks what it reads before any work: exit 2, one line that
names the input and an option the command has, and nothing extracted."""

import json

import pytest

from jobs import cv_experiment
from jobs.cv_inputs import parse_rows
from synth import ConfigError
from tests.conftest import ROOT


def corpus(tmp_path, labels):
    rows = [json.loads(line) for line in (ROOT / "tests/data/cvs_small.jsonl").open()]
    path = tmp_path / "corpus.jsonl"
    path.write_text(
        "".join(
            json.dumps({"text": r["text"], "label": lab}) + "\n" for r, lab in zip(rows, labels)
        )
    )
    return path


def run(tmp_path, capsys, monkeypatch, *extra):
    monkeypatch.chdir(tmp_path)  # not the checkout: default paths must still be found
    code = cv_experiment.main(["--output", str(tmp_path / "out"), *extra])
    return code, capsys.readouterr().err.strip()


def test_a_label_outside_the_role_list_stops_before_extraction(tmp_path, capsys, monkeypatch):
    labels = ["ADVOCATE", "advocate", "CHEF", "Chef"] * 8
    code, err = run(tmp_path, capsys, monkeypatch, "--corpus", str(corpus(tmp_path, labels)))
    assert code == 2 and "\n" not in err, err
    assert "14 CV(s) are labelled with roles outside the role values of --schema" in err
    assert "'CHEF' (7), 'Chef' (7)" in err and "ADVOCATE" not in err  # ADVOCATE is Advocate
    assert "--on-out-of-domain clip" in err
    assert not (tmp_path / "out" / "table.csv").exists()


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--schema", "nowhere.yaml", "--schema nowhere.yaml: file not found"),
        ("--config", "configs/nope.yaml", "--config configs/nope.yaml: file not found"),
        ("--roles", "roles.yaml", "--roles roles.yaml: file not found"),
        ("--config", "configs/tickets.yaml", "doc_type is not cv"),
        ("--rows", "real,masked", "--rows: unknown ['masked']"),
    ],
)
def test_inputs_are_checked_first(tmp_path, capsys, monkeypatch, flag, value, message):
    path = corpus(tmp_path, ["HR", "Sales"] * 16)
    code, err = run(tmp_path, capsys, monkeypatch, "--corpus", str(path), flag, value)
    assert code == 2 and message in err, err
    assert not (tmp_path / "out" / "train.jsonl").exists()


def test_rows_by_name():
    assert parse_rows("all") == {
        "real",
        "synthetic",
        "combined",
        "masked-real",
        "masked-synthetic",
        "random",
    }
    assert parse_rows("real, random") == {"real", "random"}
    with pytest.raises(ConfigError, match="--rows"):
        parse_rows(",")


def test_per_role_draws_a_stratified_subsample_with_the_seed():
    from collections import Counter

    from synth.kinds.cvs.extract.corpus import CV

    cvs = [CV(f"cv {i}", role) for role, n in (("A", 9), ("B", 5), ("C", 2)) for i in range(n)]
    train, test = cv_experiment.split(cvs, 0.4, seed=0, per_role=4)
    assert Counter(c.role for c in train + test) == {"A": 4, "B": 4, "C": 2}
    assert Counter(c.role for c in test) == {"A": 2, "B": 2, "C": 1}
    again = cv_experiment.split(cvs, 0.4, seed=0, per_role=4)
    assert [c.text for c in again[0] + again[1]] == [c.text for c in train + test]
    whole = cv_experiment.split(cvs, 0.4, seed=0)  # without a cap, every CV
    assert len(whole[0] + whole[1]) == len(cvs)


def test_per_role_below_two_is_refused(tmp_path, capsys, monkeypatch):
    path = corpus(tmp_path, ["HR", "Sales"] * 16)
    code, err = run(tmp_path, capsys, monkeypatch, "--corpus", str(path), "--per-role", "1")
    assert code == 2 and "--per-role must be >= 2, got 1" in err, err
