"""A new evaluation task is one module and one registry entry: the text_length task
(tests/extensions/text_length/length_task.py), registered by a fixture, runs in the real evaluate job on real
generated tickets, and its own summary and plot reach metrics.json, report.md and the
history."""

import json

import pytest

from eval import history
from jobs import eval_tasks
from tests.extensions.text_length import length_task


@pytest.fixture
def text_length(monkeypatch):
    """The one line a new task adds."""
    monkeypatch.setitem(eval_tasks.TASKS, "text_length", length_task.TASK)


def test_a_registered_task_runs_and_is_reported_and_tracked(
    text_length, generated, tmp_path, ray_local
):
    from jobs.evaluate import run

    out = tmp_path / "eval"
    options = {
        "train": [str(generated)],
        "test": "eval/data/dev_tickets.jsonl",
        "output": str(out),
        "tasks": "text_length",
        "history": str(tmp_path / "history"),
    }
    result = run(options)
    scores = json.loads((out / "metrics.json").read_text())["tasks"]["text_length"]
    assert scores["ratio"] == pytest.approx(scores["synthetic_words"] / scores["real_words"])
    assert scores["summary"]["headline"] == [["words_ratio", scores["ratio"], True]]
    report = (out / "report.md").read_text()
    assert "| text_length | words synthetic / real | " in report
    assert "![text_length.txt](text_length.txt)" in report
    assert (out / "text_length.txt").read_text() == f"{scores['ratio']:.3f}\n"
    assert history.headline(result) == [("text_length", "words_ratio", scores["ratio"], True)]
    tracked = history.read_history(str(tmp_path / "history")).to_pylist()
    assert [(r["task"], r["metric"]) for r in tracked] == [("text_length", "words_ratio")]


def test_an_unregistered_task_is_refused_with_the_list(generated, tmp_path):
    from jobs.evaluate import _tasks, options_from
    from synth import ConfigError
    from synth.config.evaluate_options import EvaluateOptions

    args = options_from(
        EvaluateOptions,
        {"train": [str(generated)], "test": "t.jsonl", "output": "o", "tasks": "word_count"},
    )
    with pytest.raises(ConfigError, match="unknown task\\(s\\) \\['word_count'\\]"):
        _tasks(args)


@pytest.mark.parametrize(
    "tasks, refused", [("bio_ner", False), ("bio_ner,classify", True), (None, True)]
)
def test_several_train_outputs_of_tickets_are_for_the_bio_ner_task_alone(tasks, refused):
    """The detector trains bio_ner on its tickets and CVs together; any other ticket task
    would mix two kinds' labels, so it is refused before anything is read."""
    from jobs.evaluate import _tasks, options_from
    from synth import ConfigError
    from synth.config.evaluate_options import EvaluateOptions

    options = {"train": ["tickets", "cvs"], "test": "t.jsonl", "output": "o", "tasks": tasks}
    args = options_from(EvaluateOptions, options)
    if refused:
        with pytest.raises(ConfigError, match="several --train are for --tasks bio_ner alone"):
            _tasks(args)
    else:
        assert _tasks(args) == ["bio_ner"]
