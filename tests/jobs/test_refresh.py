"""`hrsynth refresh` on a file:// root: two versions, `latest` moves only on success."""

import json
import tempfile

import datasets
import pyarrow.parquet as pq
import pytest

from eval.history import read_history
from synth.io import versions
from tests.conftest import refresh
from tests.kept import beside

# datasets caches a folder with YAML configs by its name, not its content (README,
# "Reading the output"): every load here gets a cache of its own.
FRESH = tempfile.mkdtemp(prefix="hf-datasets-")


def test_two_refreshes_make_two_versions_and_move_latest(refreshed):
    first, second, _ = refreshed["runs"]
    assert first.returncode == 0, first.stderr[-3000:]
    assert second.returncode == 0, second.stderr[-3000:]
    done = [v for v in versions.list_versions(refreshed["root"]) if v["status"] == "succeeded"]
    assert len(done) == 2
    pointers = [json.loads(p) for p in refreshed["latest"][:2]]
    assert [p["version"] for p in pointers] == [v["version"] for v in done]
    for v in done:
        folder = refreshed["folder"] / v["version"]
        assert pq.read_table(folder / "data").num_rows == 8
        assert json.loads(beside(folder / "data", "_manifest.json").read_text())["rows"] == 8
        assert (folder / "eval" / "metrics.json").is_file()
    history = read_history(refreshed["root"] + "/history.parquet").to_pylist()
    assert len({r["train_run_id"] for r in history}) == 2
    # the root's card points `datasets` at the latest version's documents
    latest = refreshed["folder"] / done[-1]["version"] / "data"
    loaded = datasets.load_dataset(str(refreshed["folder"]), split="train", cache_dir=FRESH)
    assert sorted(loaded["id"]) == sorted(pq.read_table(latest).column("id").to_pylist())
    card = (refreshed["folder"] / "README.md").read_text()
    assert f"data_files: {done[-1]['version']}/data/data/part-*.parquet" in card
    assert "## Evaluation" in beside(latest, "_README.md").read_text()  # the scores, per version


def test_a_failed_refresh_leaves_latest_where_it_was(refreshed):
    failed = refreshed["runs"][2]
    assert failed.returncode == 2 and "error:" in failed.stderr
    assert refreshed["latest"][2] == refreshed["latest"][1]
    newest = versions.list_versions(refreshed["root"])[-1]
    assert newest["status"] == "failed"
    status = json.loads((refreshed["folder"] / newest["version"] / "_refresh.json").read_text())
    assert "test" in status["error"] and [s["step"] for s in status["steps"]] == ["generate"]
    # what it finished is kept: the generated shards are there, whole
    assert pq.read_table(refreshed["folder"] / newest["version"] / "data").num_rows == 8


def test_retention_keeps_the_newest_good_versions(refreshed, dp_model, tmp_path):
    folder = refreshed["folder"]
    before = [v["version"] for v in versions.list_versions(refreshed["root"])]
    third = refresh(refreshed["root"], dp_model)  # --keep 2: the oldest good one goes
    assert third.returncode == 0, third.stderr[-3000:]
    after = [v["version"] for v in versions.list_versions(refreshed["root"])]
    assert after[:-1] == before[1:]  # only the oldest version was deleted
    assert json.loads((folder / "latest.json").read_text())["version"] == after[-1]
    assert (folder / "history.parquet").is_dir()


def test_refits_are_charged_to_the_root_and_capped(tmp_path):
    """A refit is a new release of the private rows: the root's account adds them up, and
    one that would pass --total-budget is refused before anything is written."""
    from synth.dp.account import read_account

    root = str(tmp_path / "root")
    refit = [
        "--fit-data",
        "data/demo/absenteeism.csv",
        "--fit-schema",
        "configs/absenteeism_schema.yaml",
        "--epsilon",
        "1",
        "--total-budget",
        "1.5",
    ]
    first = refresh(root, None, *refit)
    assert first.returncode == 0, first.stderr[-3000:]
    (version,) = versions.list_versions(root)
    model = json.loads((tmp_path / "root" / version["version"] / "model.json").read_text())
    assert model["ledger"]["spent"] == pytest.approx(1.0)
    account = read_account(root)
    assert account["spent"] == 1.0 and [e["version"] for e in account["entries"]] == [
        version["version"]
    ]
    latest = (tmp_path / "root" / "latest.json").read_text()
    second = refresh(root, None, *refit)
    assert second.returncode == 2 and "--total-budget 1.5" in second.stderr
    assert "Traceback" not in second.stderr
    assert (tmp_path / "root" / "latest.json").read_text() == latest
    assert len(versions.list_versions(root)) == 1 and read_account(root) == account
