"""An eighth evaluation task, as a user adds one (docs/extending.md): this module and its
entry point in pyproject.toml beside it (tests/test_extensions.py installs it and runs
it through `hrsynth evaluate`), or one entry in jobs.eval_tasks.TASKS
(tests/jobs/test_eval_task_registry.py adds it in a fixture). It compares the mean length in words of the training and test texts; report.md, the
history and the sinks show it without knowing it exists."""

from pathlib import Path

from eval.summaries import summary as summarise
from jobs.eval_tasks import Task, TaskContext


def run(ctx: TaskContext, args) -> tuple[dict, dict]:
    synthetic = sum(len(t.split()) for t in ctx.train_texts) / len(ctx.train_texts)
    real = sum(len(t.split()) for t in ctx.texts) / len(ctx.texts)
    return {"synthetic_words": synthetic, "real_words": real, "ratio": synthetic / real}, {}


def summary(s: dict) -> dict:
    shown = f"{s['synthetic_words']:.1f} / {s['real_words']:.1f}"
    return summarise([("words synthetic / real", shown)], [("words_ratio", s["ratio"], True)])


def plots(s: dict, task: str, out: Path) -> list[str]:
    (out / f"{task}.txt").write_text(f"{s['ratio']:.3f}\n")
    return [f"{task}.txt"]


TASK = Task("text_length", run, summary=summary, plots=plots)
