"""What every benchmark shares: where results go, how they are written, how a table is
printed. A benchmark measures; this module is the one place its JSON and its table take
their shape (benchmarks/README.md lists every benchmark and its results file)."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS_DIR = ROOT / "benchmarks" / "results"
DATA_DIR = ROOT / "benchmarks" / "data"


def write_results(name: str | Path, doc, indent: int = 1) -> Path:
    """`doc` as benchmarks/results/NAME, or at NAME when it is a path (a benchmark's
    --output): JSON, non-ASCII kept, a final newline."""
    path = Path(name) if "/" in str(name) else RESULTS_DIR / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=indent, ensure_ascii=False, default=str) + "\n")
    return path


def _cell(value, fmt: str) -> str:
    if value is None:
        return "–"
    return format(value, fmt) if fmt and isinstance(value, int | float) else str(value)


def print_table(rows: list[dict], columns: list[tuple[str, str, str]]) -> None:
    """A Markdown table on stdout: `columns` are (key, header, format spec); a missing
    value prints as –."""
    print("| " + " | ".join(header for _, header, _ in columns) + " |")
    print("| " + " | ".join("---" for _ in columns) + " |")
    for row in rows:
        print("| " + " | ".join(_cell(row.get(k), fmt) for k, _, fmt in columns) + " |")
