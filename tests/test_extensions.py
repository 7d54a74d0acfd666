"""Every extension is two files, and nothing in hrsynth is edited: the echo backend, the
memo kind, the text_length task and the employee_numbers detector (tests/extensions/, a
module and a pyproject.toml each) are installed as a user installs them (pip, into a folder of their own) and run
through the real command line and the real jobs on a local Ray cluster, whose workers
find them the way the driver does. The steps are docs/extending.md's."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from eval import history
from tests.outputs import read_output

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EXTENSIONS = ("echo", "memo", "text_length", "employee_numbers")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """The three packages pip-installed into one folder; the environment that sees them."""
    work = tmp_path_factory.mktemp("extensions")
    for name in EXTENSIONS:  # pip builds in the source folder: build from copies
        shutil.copytree(ROOT / "tests" / "extensions" / name, work / "src" / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
        + ["--no-build-isolation", "--target", str(work / "site")]
        + [str(work / "src" / name) for name in EXTENSIONS],
        check=True,
        capture_output=True,
    )
    return {**os.environ, "PYTHONPATH": str(work / "site")}


def hrsynth(env: dict, *argv: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "hrsynth"), *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def rows(folder: Path) -> list[dict]:
    return read_output(folder).to_pylist()


@pytest.fixture(scope="module")
def echo_tickets(installed, dp_model, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("echo") / "tickets"
    generate = ["generate", "--config", "configs/tickets.yaml", "--backend", "echo"]
    generate += ["--model", "echo-1", "--num-docs", "16", "--output", str(out)]
    hrsynth(installed, *generate, "--dp-model", str(dp_model), "--seed", "3")
    return out


def test_an_installed_backend_is_listed_and_writes_tickets(installed, echo_tickets):
    assert "echo" in hrsynth(installed, "generate", "--help").stdout
    manifest = json.loads((echo_tickets / "_manifest.json").read_text())
    assert manifest["backend"] == "echo" and manifest["model"] == "echo-1"
    written = rows(echo_tickets)
    assert len(written) == 16
    assert {r["model"] for r in written} == {"echo-1"}
    # the slots were written by echo (some tickets' shapes have no slot to write)
    assert sum("The request is noted." in r["text"] for r in written) >= 4


def test_an_installed_kind_is_planned_and_written_with_its_own_settings(installed, tmp_path):
    out, config = tmp_path / "memos", tmp_path / "memo.yaml"
    config.write_text("memo:\n  opening: As of\n")  # the kind's own section
    hrsynth(
        installed,
        *("generate", "--config", str(config), "--doc-type", "memo"),
        *("--backend", "echo", "--model", "echo-1", "--prompt-style", "plain"),
        *("--num-docs", "6", "--shard-size", "4", "--output", str(out)),
    )
    written = rows(out)
    assert len(written) == 6 and {r["doc_type"] for r in written} == {"memo"}
    for row in written:
        assert row["text"].startswith("As of 2027-0") and "The request is noted." in row["text"]
        assert [e["label"] for e in row["entities"]] == ["date"]
    assert "# hrsynth synthetic HR memos\n" in (out / "_README.md").read_text()  # the card
    assert json.loads((out / "_run.json").read_text())["config"]["memo.opening"] == "As of"


def test_an_installed_task_runs_and_is_reported_and_tracked(installed, echo_tickets, tmp_path):
    assert "text_length" in hrsynth(installed, "evaluate", "--help").stdout
    out, tracked = tmp_path / "eval", tmp_path / "history"
    hrsynth(
        installed,
        *("evaluate", "--train", str(echo_tickets), "--test", "eval/data/dev_tickets.jsonl"),
        *("--tasks", "text_length", "--output", str(out), "--history", str(tracked)),
    )
    scores = json.loads((out / "metrics.json").read_text())["tasks"]["text_length"]
    assert scores["ratio"] == pytest.approx(scores["synthetic_words"] / scores["real_words"])
    assert "| text_length | words synthetic / real | " in (out / "report.md").read_text()
    assert (out / "text_length.txt").read_text() == f"{scores['ratio']:.3f}\n"
    runs = history.read_history(str(tracked)).to_pylist()
    assert [(r["task"], r["metric"]) for r in runs] == [("text_length", "words_ratio")]


def test_an_installed_detector_finds_what_it_knows(installed, tmp_path):
    assert "employee_numbers" in hrsynth(installed, "deidentify", "--help").stdout
    documents = tmp_path / "docs.jsonl"
    texts = ["My number is EMP-20417, please fix my payslip.", "EMP-99 is not one; EMP-1234 is."]
    documents.write_text(
        "".join(json.dumps({"id": str(i), "text": t}) + "\n" for i, t in enumerate(texts))
    )
    out = tmp_path / "tagged"
    hrsynth(
        installed,
        *("deidentify", "--input", str(documents), "--output", str(out), "--method", "tag"),
        *("--detectors", "employee_numbers"),
    )
    shards = sorted(out.glob("part-*.parquet"))
    written = sorted(
        (r for f in shards for r in pq.read_table(f).to_pylist()), key=lambda r: r["text"]
    )
    assert [r["text"] for r in written] == [
        "EMP-99 is not one; [ID] is.",
        "My number is [ID], please fix my payslip.",
    ]
