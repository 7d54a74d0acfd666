"""The evaluate job end to end: real generated tickets, real encoder, real local Ray."""

import json
import subprocess
import sys

import pytest

from synth.deid.types import personal_types
from tests.conftest import ROOT


def _evaluate(args, tmp_path, env=None):
    """The evaluate job in a subprocess; `env` (ray_joined) has it join the session's Ray."""
    return subprocess.run(
        [sys.executable, "-m", "jobs.evaluate", *args],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        env=env,
    )


PRIVATE = ["--private", "data/demo/absenteeism.csv", "--schema", "configs/absenteeism_schema.yaml"]


def macro_f1(confusion: list[list[int]]) -> float:
    """Macro F1 from a confusion matrix (rows: truth, columns: prediction), by hand, over
    the labels the test set holds."""
    f1s = []
    for i, row in enumerate(confusion):
        tp, gold, predicted = row[i], sum(row), sum(r[i] for r in confusion)
        if not gold:
            continue
        p, r = (tp / predicted if predicted else 0.0), (tp / gold if gold else 0.0)
        f1s.append(2 * p * r / (p + r) if p + r else 0.0)
    return sum(f1s) / len(f1s)


@pytest.mark.component("evaluate: Ray Train fits MiniLM on the generated tickets")
def test_every_task_reports_its_metrics(generated, tmp_path, ray_joined):
    out = tmp_path / "eval"
    result = _evaluate(
        [
            "--train",
            str(generated),
            "--test",
            "eval/data/dev_tickets.jsonl",
            "--epochs",
            "1",
            "--batch-size",
            "8",
            "--output",
            str(out),
            *PRIVATE,
            "--history",
            str(tmp_path / "history.parquet"),
        ],
        tmp_path,
        ray_joined,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    m = json.loads((out / "metrics.json").read_text())
    assert m["test"]["documents"] == 40 and len(m["test"]["sha256"]) == 64
    # flagged free-form tickets (none of their variables in the text) are left out
    flagged = m["train"]["manifest"]["rows_flagged_no_variables"]
    assert m["train"]["documents"] == 16 - flagged and m["train"]["run_id"]
    tasks = m["tasks"]
    for name in ("classify", "fasttext"):
        assert len(tasks[name]["confusion"]) == 8
        assert tasks[name]["macro_f1"] == pytest.approx(macro_f1(tasks[name]["confusion"]))
        assert sum(map(sum, tasks[name]["confusion"])) == 40
    chosen = tasks["fasttext"]["hyperparameters"]  # tickets choose between two presets
    assert chosen["preset"] in ("THESIS", "LONG_DOCUMENTS")
    # scored on validation unless 2 tickets a label left too few templates to hold out
    assert set(chosen.get("validation_weighted_f1", ())) in (set(), {"THESIS", "LONG_DOCUMENTS"})
    assert set(tasks["bio_ner"]) >= {"exact", "partial"}
    dev = (ROOT / "eval/data/dev_tickets.jsonl").read_text().splitlines()
    assert tasks["bio_ner"]["exact"]["gold"] == sum(len(json.loads(x)["entities"]) for x in dev)
    assert tasks["cls_entity_ner"]["candidates"] > 0
    assert set(tasks["intrinsic"]["real"]["per_label"]) == set(tasks["classify"]["labels"])
    attributes = tasks["privacy"]["attributes"]
    assert attributes["sampled_rows"] == 2 and attributes["private_rows_fitted"] == 592
    # 2 sampled rows, each closer (1), farther (0) or tied (½): a multiple of ¼.
    share = attributes["holdout"]["closer_to_fitted_share"]
    assert 0 <= share <= 1 and (share * 4).is_integer() and attributes["holdout"]["rows"] == 148
    assert m["history"]["rows"] == [] and m["config"]["tasks"].endswith("privacy,deid")
    deid, by_variable = tasks["deid"], personal_types().by_variable
    records = [json.loads(x) for x in dev]
    assert deid["gold_spans"] == sum(
        len([e for e in r["entities"] if e[2] in by_variable]) + len(r["personal"]) for r in records
    )
    # the NER detector is the bio_ner model this run trained
    assert set(deid["detectors"]) == {"presidio-basic", "presidio", "ner", "presidio+ner"}
    tagged = deid["detectors"]["presidio+ner"]["methods"]["tag"]
    # p5 lies between the worst document and 1; it may exceed the mean (one bad document
    # pulls the mean below a 5th percentile of perfect ones)
    privacy = tagged["privacy"]
    assert 0 <= privacy["worst"][0]["score"] <= privacy["p5"] <= 1 and 0 <= privacy["mean"] <= 1
    report = (out / "report.md").read_text()
    assert "| classify | macro F1 |" in report and "| intrinsic | ttr_1" in report
    assert "| privacy | exact match rate |" in report
    audit = tasks["privacy"]["pii_audit"]  # the generate actors' audit, carried over
    assert audit["policy"] == "flag" and audit["rows"] == 16
    assert "| privacy | documents with personal data not planted (audit, policy flag) |" in report
    assert "| deid | presidio+ner tag: privacy mean / p5, utility drop |" in report
    plots = ("classify_confusion.png", "fasttext_f1.png", "bio_ner_f1.png", "intrinsic.png")
    for plot in (*plots, "deid_privacy.png"):
        assert (out / plot).stat().st_size > 1000 and f"]({plot})" in report


def test_a_scheduled_rerun_is_compared_with_the_last_one(
    generated, tmp_path, monkeypatch, ray_joined
):
    """Same configuration twice; the second run reads both the shards and the history
    through a file:// URI, the way an object store is read; both go to MLflow too."""
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # the subprocesses inherit it
    mlruns = (tmp_path / "mlruns").as_uri()
    args = ["--test", "eval/data/dev_tickets.jsonl", "--tasks", "fasttext,privacy", *PRIVATE]
    args += ["--mlflow-uri", mlruns]
    history = tmp_path / "history.parquet"
    for run, train, hist in (
        ("a", str(generated), str(history)),
        ("b", generated.as_uri(), history.as_uri()),
    ):
        result = _evaluate(
            [*args, "--train", train, "--history", hist, "--output", str(tmp_path / run)],
            tmp_path,
            {**ray_joined, "MLFLOW_ALLOW_FILE_STORE": "true"},
        )
        assert result.returncode == 0, result.stderr[-3000:]
    second = json.loads((tmp_path / "b" / "metrics.json").read_text())["history"]
    assert {r["metric"] for r in second["rows"]} >= {"macro_f1", "exact_match_rate"}
    flagged = [r for r in second["rows"] if r["flagged"]]
    assert flagged == []  # same data, same seed
    assert "Against the previous run" in (tmp_path / "b" / "report.md").read_text()
    from mlflow.tracking import MlflowClient

    client = MlflowClient(mlruns)
    runs = client.search_runs([client.get_experiment_by_name("hrsynth-evaluate").experiment_id])
    assert len(runs) == 2 and all("fasttext.macro_f1" in r.data.metrics for r in runs)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--tasks", "classify,translate"], "--tasks: unknown task(s) ['translate']"),
        (["--train", "/nonexistent"], "no Parquet shards there"),
        (["--tasks", "privacy"], "--tasks privacy needs the private table"),
        (
            [
                "--tasks",
                "privacy",
                "--private",
                "/nonexistent.csv",
                "--schema",
                "configs/absenteeism_schema.yaml",
            ],
            "--private /nonexistent.csv: unreadable",
        ),
        (
            [
                "--tasks",
                "privacy",
                "--private",
                "synth/data/sources/airports.csv",
                "--schema",
                "configs/absenteeism_schema.yaml",
            ],
            "--private synth/data/sources/airports.csv: private table lacks column(s)",
        ),
    ],
)
def test_bad_input_is_one_line(args, message, tmp_path, capsys):
    """Refused before Ray: the command line's own main, in this process."""
    from jobs import evaluate

    assert evaluate.main(bad_input(args, tmp_path)) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_input_through_the_command_line_is_one_line(tmp_path):
    """The same refusal as a user meets it: the process, its exit code, its one line."""
    result = _evaluate(bad_input(["--tasks", "classify,translate"], tmp_path), tmp_path)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "--tasks: unknown task(s) ['translate']" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr[-2000:]


def bad_input(args: list[str], tmp_path) -> list[str]:
    """The evaluate command line with `args` in place of the defaults they name."""
    (tmp_path / "train").mkdir(exist_ok=True)
    base = {
        "--train": str(tmp_path / "train"),
        "--test": "eval/data/dev_tickets.jsonl",
        "--output": str(tmp_path / "o"),
        "--tasks": "fasttext",
    }
    for flag, value in zip(args[::2], args[1::2]):
        base[flag] = value
    return [x for kv in base.items() for x in kv]
