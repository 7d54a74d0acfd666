"""evaluate's sinks (history, MLflow) are checked before any work, and one that fails at
the end loses nothing: the results are written first."""

import pyarrow as pa
import pyarrow.parquet as pq

from eval.sinks import write_sinks
from jobs import evaluate
from tests.kept import beside

TEST = "eval/data/dev_tickets.jsonl"


def _evaluate(tmp_path, *extra) -> int:
    train = tmp_path / "train"
    train.mkdir()
    out = tmp_path / "eval"
    return evaluate.main(["--train", str(train), "--test", TEST, "--output", str(out), *extra])


def test_an_old_format_history_stops_the_run_before_the_work(tmp_path, capsys):
    old = tmp_path / "history.parquet"  # hrsynth before 0.2: one file
    pq.write_table(pa.table({"x": [1]}), old)
    assert _evaluate(tmp_path, "--history", str(old)) == 2
    err = capsys.readouterr().err
    assert "--history" in err and "move it into a folder" in err
    assert not (tmp_path / "eval").exists()  # nothing trained, nothing half-written


def test_an_mlflow_server_that_is_down_stops_the_run_before_the_work(tmp_path, capsys):
    assert _evaluate(tmp_path, "--mlflow-uri", "http://127.0.0.1:9") == 2
    err = capsys.readouterr().err.strip()
    assert "--mlflow-uri http://127.0.0.1:9: no MLflow server answers" in err
    assert "\n" not in err and not (tmp_path / "eval").exists()


def test_a_sink_that_fails_at_the_end_is_a_warning_and_the_results_stay(tmp_path, capsys):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    result = {"config": {}, "test": {"sha256": "x"}, "train": {"run_id": "r"}, "tasks": {}}
    write_sinks(result, str(blocked / "history"), None, 0.02)  # a folder under a file
    assert set(result["sink_errors"]) == {"history"}
    assert "warning: the history sink failed" in capsys.readouterr().err


def test_a_local_mlflow_store_that_cannot_be_written_stops_the_run_before_the_work(
    tmp_path, capsys
):
    """It was found only after training, and the job exited 0."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert _evaluate(tmp_path, "--mlflow-uri", f"file://{blocked}/mlruns") == 2
    err = capsys.readouterr().err.strip()
    assert "cannot open this MLflow store" in err and "\n" not in err
    assert not (tmp_path / "eval").exists()


def test_training_on_a_deidentify_output_is_named_before_the_work(tmp_path, capsys):
    from synth.deid.corpus import DEID_SCHEMA

    train = tmp_path / "train"
    train.mkdir()
    pq.write_table(DEID_SCHEMA.empty_table(), train / "part-00000.parquet")
    out = tmp_path / "eval"
    argv = ["--train", str(train), "--test", TEST, "--output", str(out)]
    assert evaluate.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "has no entities column (a deidentify output)" in err and "\n" not in err
    assert not out.exists()


def test_an_empty_test_set_and_boolean_offsets_are_named(tmp_path, capsys):
    import json

    (tmp_path / "train").mkdir()
    for content, message in [
        ("[]", "no records in it"),
        (
            json.dumps(
                [{"text": "I need a day off", "label": "leave", "entities": [[True, 5, "x"]]}]
            ),
            "is not [start, end, label]",
        ),
    ]:
        test = tmp_path / "test.json"
        test.write_text(content)
        argv = ["--train", str(tmp_path / "train"), "--test", str(test), "--output", "o"]
        assert evaluate.main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert message in err and "\n" not in err, err


def test_a_second_evaluation_into_the_same_output_is_refused(tmp_path, capsys):
    from synth.io.lock import output_lock

    with output_lock(str(tmp_path / "eval"), "evaluate"):
        assert _evaluate(tmp_path) == 2
    assert "--output" in capsys.readouterr().err
    assert not (tmp_path / "eval").exists()  # the holder made it; nothing else was written


def test_the_same_output_twice_is_refused_whatever_its_spelling(tmp_path, capsys):
    """Issue 84: `--train A --train A/../A/` trained every row twice."""
    train = tmp_path / "A"
    train.mkdir()
    pq.write_table(
        pa.table({"text": ["x"], "label": ["y"], "entities": [[]]}), train / "part-00000.parquet"
    )
    out = tmp_path / "eval"
    again = f"{train}/../A/"
    argv = ["--train", str(train), "--train", again, "--test", TEST, "--output", str(out)]
    assert evaluate.main([*argv, "--tasks", "bio_ner"]) == 2
    err = capsys.readouterr().err.strip()
    assert f"--train {again}: the same output as --train {train}" in err and "\n" not in err
    assert not out.exists()


def test_a_copy_of_an_output_is_the_same_run_and_refused(tmp_path, capsys):
    """Issue 94 (EVM2): `cp -r A B` then `--train A --train B` trained every row twice: the
    check compared places, not run ids."""
    import json
    import shutil

    train = tmp_path / "A"
    (train / "data").mkdir(parents=True)
    pq.write_table(
        pa.table({"text": ["x"], "label": ["y"], "entities": [[]]}),
        train / "data" / "part-00000.parquet",
    )
    run = {"fingerprint": "f" * 64, "run_id": "f" * 12, "config": {}, "resumed": 0}
    beside(train, "_run.json", made=True).write_text(json.dumps(run))
    shutil.copytree(train, tmp_path / "B")  # an output is its folder and the one beside it
    shutil.copytree(beside(train, ""), beside(tmp_path / "B", ""))
    out = tmp_path / "eval"
    argv = ["--train", str(train), "--train", str(tmp_path / "B"), "--test", TEST]
    assert evaluate.main([*argv, "--output", str(out), "--tasks", "bio_ner"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"error: --train {tmp_path / 'B'}: the same run (run id {'f' * 12}) as --train {train}, "
        "a copy of one output; give each run once (its rows would be trained on twice)"
    )
    assert not out.exists()
