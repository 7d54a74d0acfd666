"""The evaluation's human-readable output: report.md and its PNG plots.

Everything here reads the metrics dict the job also writes as metrics.json, so the report
never shows a number that is not in the JSON. Plots: a confusion matrix and per-label F1
bars for each classifier, per-entity-type F1 bars for BIO NER, and the intrinsic metrics
synthetic beside real.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: jobs run headless on cluster nodes
import matplotlib.pyplot as plt
import numpy as np

from eval.summaries import INTRINSIC


def _short(label: str) -> str:
    return label.split("_", 1)[-1]


def confusion_plot(scores: dict, title: str, path: Path) -> None:
    labels, matrix = scores["labels"], np.asarray(scores["confusion"])
    fig, ax = plt.subplots(figsize=(7, 6))
    ax.imshow(matrix, cmap="Blues")
    ticks = range(len(labels))
    ax.set_xticks(ticks, [_short(x) for x in labels], rotation=45, ha="right")
    ax.set_yticks(ticks, [_short(x) for x in labels])
    for (i, j), n in np.ndenumerate(matrix):
        ax.text(
            j,
            i,
            str(n),
            ha="center",
            va="center",
            color="white" if n > matrix.max() / 2 else "black",
        )
    ax.set(xlabel="predicted", ylabel="true", title=title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def f1_bars(per_class: dict, title: str, path: Path) -> None:
    names = list(per_class)
    fig, ax = plt.subplots(figsize=(7, 0.4 * len(names) + 1.5))
    ax.barh([_short(n) for n in names], [per_class[n]["f1"] for n in names], color="tab:blue")
    ax.set(xlim=(0, 1), xlabel="F1", title=title)
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def intrinsic_plot(scores: dict, path: Path) -> None:
    synthetic, real = scores["synthetic"]["overall"], scores["real"]["overall"]
    x = np.arange(len(INTRINSIC))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [3, 1]})
    axes[0].bar(x - 0.2, [synthetic[k] for k in INTRINSIC], 0.4, label="synthetic")
    axes[0].bar(x + 0.2, [real[k] for k in INTRINSIC], 0.4, label="real")
    axes[0].set_xticks(x, INTRINSIC)
    axes[0].legend()
    axes[0].set_title("ratios (mean per document)")
    axes[1].bar(
        [0, 1],
        [synthetic["words_mean"], real["words_mean"]],
        yerr=[synthetic["words_sd"], real["words_sd"]],
        color=["tab:blue", "tab:orange"],
    )
    axes[1].set_xticks([0, 1], ["synthetic", "real"])
    axes[1].set_title("words per document (± sd)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_plots(result: dict, out: Path, plotters: dict) -> list[str]:
    """Every plot the result's tasks draw (`plotters`: task -> its plots function, or
    None); returns the file names."""
    written = []
    for task, s in result["tasks"].items():
        if plotters.get(task):
            written += plotters[task](s, task, out)
    return written


def classification_plots(s: dict, task: str, out: Path) -> list[str]:
    confusion_plot(s, f"{task}: confusion matrix", out / f"{task}_confusion.png")
    f1_bars(s["per_class"], f"{task}: F1 per label", out / f"{task}_f1.png")
    return [f"{task}_confusion.png", f"{task}_f1.png"]


def entity_plots(s: dict, task: str, out: Path) -> list[str]:
    f1_bars(s["per_type_exact"], f"{task}: exact F1 per type", out / f"{task}_f1.png")
    return [f"{task}_f1.png"]


def intrinsic_plots(s: dict, task: str, out: Path) -> list[str]:
    intrinsic_plot(s, out / f"{task}.png")
    return [f"{task}.png"]


def deid_plots(s: dict, task: str, out: Path) -> list[str]:
    deid_plot(s, out / f"{task}_privacy.png")
    return [f"{task}_privacy.png"]


def deid_plot(s: dict, path: Path) -> None:
    """Mean privacy score (bars) and its 5th percentile (marks) per detector and method."""
    names, means, p5s = [], [], []
    for combo, entry in s["detectors"].items():
        for method, m in entry["methods"].items():
            names.append(f"{combo}\n{method}")
            means.append(m["privacy"]["mean"])
            p5s.append(m["privacy"]["p5"])
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(names)), 4))
    ax.bar(range(len(names)), means, label="mean")
    ax.scatter(range(len(names)), p5s, color="black", marker="_", s=200, label="5th percentile")
    ax.set_xticks(range(len(names)), names, fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("privacy score")
    ax.set_title("deid: privacy score per detector and method")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _history_lines(history: dict | None) -> list[str]:
    if history is None:
        return []
    lines = ["", "## Against the previous run of this configuration", ""]
    if not history["rows"]:
        return lines + ["No earlier run of this configuration in the history table."]
    lines += [
        f"Tolerance {history['tolerance']}; ⚠ marks a drop beyond it.",
        "",
        "| task | metric | previous | now | change | |",
        "| --- | --- | ---: | ---: | ---: | --- |",
    ]
    for r in history["rows"]:
        lines.append(
            f"| {r['task']} | {r['metric']} | {r['previous']:.3f} | {r['now']:.3f} | "
            f"{r['change']:+.3f} | {'⚠ drop' if r['flagged'] else ''} |"
        )
    return lines


def markdown(result: dict, plots: list[str], history: dict | None = None) -> str:
    lines = [
        f"# Evaluation of {result['train']['path']}",
        "",
        (
            f"Test set {result['test']['path']} ({result['test']['documents']} documents, "
            f"sha256 {result['test']['sha256'][:12]}…); training documents: "
            f"{result['train']['documents']} (run {result['train']['run_id']})."
        ),
        "",
        "| task | score | value | wall s |",
        "| --- | --- | ---: | ---: |",
    ]
    for task, s in result["tasks"].items():
        for name, value in s["summary"]["rows"]:
            shown = f"{value:.3f}" if isinstance(value, float) else value
            lines.append(f"| {task} | {name} | {shown} | {s['wall_s']:.1f} |")
    baseline = result.get("random_baseline") or {}
    if baseline:
        lines += [
            "",
            "## Random baseline (training labels permuted)",
            "",
            "| task | runs | weighted F1 mean ± sd | macro F1 mean |",
            "| --- | ---: | ---: | ---: |",
        ]
        lines += [
            f"| {t} | {b['runs']} | {b['weighted_f1_mean']:.3f} ± {b['weighted_f1_sd']:.3f}"
            f" | {b['macro_f1_mean']:.3f} |"
            for t, b in baseline.items()
        ]
    lines += _history_lines(history)
    if plots:
        lines += ["", "## Plots", ""] + [f"![{p}]({p})" for p in plots]
    return "\n".join(lines) + "\n"
