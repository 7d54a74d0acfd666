"""History (append, compare, flag, concurrent writers) and the report's plots, on
hand-made results."""

import threading

import pyarrow.parquet as pq
import pytest

from eval import history, report
from jobs.eval_tasks import TASKS, plotters
from synth import ConfigError


def summarised(result: dict) -> dict:
    """Each task's scores with the summary evaluate stores beside them (run_task)."""
    for task, s in result["tasks"].items():
        s["summary"] = TASKS[task].summary(s)
    return result


def _result(macro_f1: float, exact_rate: float, tasks="classify,privacy") -> dict:
    labels = ["A_x", "B_y"]
    return summarised(
        {
            "config": {
                "tasks": tasks,
                "base_model": "minilm",
                "epochs": 1,
                "seed": 0,
                "output": "/somewhere/else",
            },
            "test": {"path": "t.jsonl", "sha256": "ab" * 32, "documents": 4},
            "train": {"path": "train", "documents": 8, "run_id": "r1", "manifest": None},
            "tasks": {
                "classify": {
                    "macro_f1": macro_f1,
                    "weighted_f1": 0.5,
                    "accuracy": 0.5,
                    "labels": labels,
                    "confusion": [[1, 1], [0, 2]],
                    "per_class": {x: {"f1": 0.5} for x in labels},
                    "wall_s": 1.0,
                },
                "privacy": {
                    "characters_reproduced": {"share": None, "note": "no text columns"},
                    "attributes": {
                        "exact_match_rate": exact_rate,
                        "near_match_rate": 0.2,
                        "holdout": None,
                        "holdout_note": "refit",
                    },
                    "wall_s": 0.1,
                },
            },
        }
    )


def test_second_run_is_compared_and_drops_are_flagged(tmp_path):
    path = str(tmp_path / "hist" / "history.parquet")
    first = history.append_and_compare(path, _result(0.80, 0.01), tolerance=0.02)
    assert first["rows"] == [] and first["previous_run_at"] is None
    second = history.append_and_compare(path, _result(0.70, 0.10), tolerance=0.02)
    by_metric = {r["metric"]: r for r in second["rows"]}
    assert by_metric["macro_f1"]["flagged"] and abs(by_metric["macro_f1"]["change"] + 0.1) < 1e-9
    assert not by_metric["weighted_f1"]["flagged"]
    assert by_metric["exact_match_rate"]["flagged"]  # lower is better for leakage
    table = pq.read_table(path)
    assert table.num_rows == 2 * 5 and set(table.column("task").to_pylist()) == {
        "classify",
        "privacy",
    }
    other = history.append_and_compare(path, _result(0.1, 0.5, tasks="classify"), 0.02)
    assert other["rows"] == []  # another configuration has no previous run


def test_concurrent_writers_lose_no_row(tmp_path):
    """A refresh and a scheduled evaluation finishing together: 2 threads x 15 runs, one
    file each; every row is there (a rewritten single table lost runs here)."""
    path = str(tmp_path / "history.parquet")

    def runs(macro_f1):
        for _ in range(15):
            history.append_and_compare(path, _result(macro_f1, 0.0), tolerance=0.02)

    writers = [threading.Thread(target=runs, args=(f,)) for f in (0.5, 0.6)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    table = history.read_history(path)
    assert table.num_rows == 30 * 5
    values = [r["value"] for r in table.to_pylist() if r["metric"] == "macro_f1"]
    assert sorted(values) == [0.5] * 15 + [0.6] * 15


def test_a_history_in_the_old_single_file_layout_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "history.parquet"
    pq.write_table(history.SCHEMA.empty_table(), path)
    with pytest.raises(ConfigError, match="move it into a folder of that name"):
        history.read_history(str(path))


def test_plots_and_report(tmp_path):
    result = _result(0.8, 0.0)
    result["tasks"]["bio_ner"] = {
        "exact": {"f1": 0.3},
        "partial": {"f1": 0.4},
        "per_type_exact": {"date": {"f1": 0.3}},
        "wall_s": 2.0,
    }
    stats = {
        "overall": {k: 0.5 for k in (*report.INTRINSIC, "log_frequency", "words_mean", "words_sd")}
    }
    result["tasks"]["intrinsic"] = {"synthetic": stats, "real": stats, "wall_s": 3.0}
    plots = report.write_plots(summarised(result), tmp_path, plotters(result["tasks"]))
    assert plots == ["classify_confusion.png", "classify_f1.png", "bio_ner_f1.png", "intrinsic.png"]
    for name in plots:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    comparison = {
        "tolerance": 0.02,
        "rows": [
            {
                "task": "classify",
                "metric": "macro_f1",
                "previous": 0.9,
                "now": 0.8,
                "change": -0.1,
                "flagged": True,
            }
        ],
    }
    text = report.markdown(result, plots, comparison)
    assert "| classify | macro F1 | 0.800 | 1.0 |" in text
    assert "| privacy | exact match rate | 0.000 |" in text
    assert "| classify | macro_f1 | 0.900 | 0.800 | -0.100 | ⚠ drop |" in text
    assert "![intrinsic.png](intrinsic.png)" in text
