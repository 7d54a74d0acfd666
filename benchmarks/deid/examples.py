"""Generated tickets shown as people read them: a few per label, spans marked.

Picks, per label, the first tickets (by id) that carry at least one span and are short
enough to read, and writes them in the markup of eval/markup.py (`[text]{type}`, a
lowercase type a taxonomy variable, an uppercase one other personal data: the persona's
name and contacts). Synthetic text only: it is ours to quote.

    python -m benchmarks.deid.examples out/detector/tickets [--per-label 3] [--max-chars 420]

Writes benchmarks/results/detector_examples.md and prints it.
"""

import argparse

import pyarrow.parquet as pq

from benchmarks.report import RESULTS_DIR
from eval.markup import mark
from synth.deid.gold import planted_spans

RESULTS = RESULTS_DIR / "detector_examples.md"


def marked_spans(row: dict) -> list[tuple[int, int, str]]:
    """The row's entities under their variable names, plus the persona values the gold
    of de-identification finds (typed NAME, EMAIL, …)."""
    spans = [(e["start"], e["end"], e["label"]) for e in row["entities"]]
    persona = planted_spans(row["text"], [], row["persona"])
    return spans + [(s.start, s.end, s.type.upper()) for s in persona]


def examples(folder: str, per_label: int, max_chars: int) -> dict[str, list[str]]:
    """label -> up to `per_label` marked tickets."""
    rows = pq.read_table(folder).sort_by("id").to_pylist()
    picked: dict[str, list[str]] = {}
    for r in rows:
        shown = picked.setdefault(r["label"], [])
        if len(shown) >= per_label or not r["entities"] or len(r["text"]) > max_chars:
            continue
        shown.append(mark(r["text"], marked_spans(r)))
    return dict(sorted(picked.items()))


def markdown(folder: str, picked: dict[str, list[str]]) -> str:
    lines = [f"# Generated tickets with their spans ({folder})", ""]
    for label, texts in picked.items():
        lines += [f"## {label}", ""]
        for text in texts:
            lines += ["```", text, "```", ""]
    return "\n".join(lines)


def main(argv=None) -> str:
    p = argparse.ArgumentParser()
    p.add_argument("folder", help="a generate output folder (Parquet shards)")
    p.add_argument("--per-label", type=int, default=3)
    p.add_argument("--max-chars", type=int, default=420)
    args = p.parse_args(argv)
    text = markdown(args.folder, examples(args.folder, args.per_label, args.max_chars))
    RESULTS.write_text(text, encoding="utf-8")
    print(text)
    return text


if __name__ == "__main__":
    main()
