"""What every benchmark shares: where results go, how they are written, how a table is
printed. A benchmark measures; this module is the one place its JSON and its table take
their shape (benchmarks/README.md lists every benchmark and its results file)."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS_DIR = ROOT / "benchmarks" / "results"
DATA_DIR = ROOT / "benchmarks" / "data"
# The environment that puts torch, oneDNN and CTranslate2 on their AVX2 kernels (the
# slowest CPU kind this project runs on, reproduced on a faster one; float32 aside).
FORCED_AVX2 = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "CT2_FORCE_CPU_ISA": "AVX2",
    "CT2_USE_MKL": "0",
}


def write_results(name: str | Path, doc, indent: int = 1) -> Path:
    """`doc` as benchmarks/results/NAME, or at NAME when it is a path (a benchmark's
    --output): JSON, non-ASCII kept, a final newline. A mapping gets `provenance`: the
    machine, commit, date and command of the run that wrote it (a number names its CPU)."""
    path = Path(name) if "/" in str(name) else RESULTS_DIR / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(doc, dict):
        doc = {**doc, "provenance": provenance()}
    path.write_text(json.dumps(doc, indent=indent, ensure_ascii=False, default=str) + "\n")
    return path


def provenance() -> dict:
    """Who measured: the machine (CPU name and kind, cores, GPU when torch sees one),
    the commit (`-dirty` with uncommitted changes), the UTC date, the command."""
    import datetime as dt

    return {
        "machine": machine(),
        "commit": _commit(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": _command(),
    }


def machine() -> dict:
    import os
    import platform
    import sys

    flags, name = set(), platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and ":" in line:
                name = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and ":" in line:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    kind = (
        "AVX-512 BF16" if "avx512_bf16" in flags
        else "AVX-512" if "avx512f" in flags
        else "AVX2" if "avx2" in flags
        else platform.machine()
    )  # fmt: skip
    gpu = None
    torch = sys.modules.get("torch")  # only when the benchmark loaded it: no import here
    if torch is not None and torch.cuda.is_available():
        gpu = torch.cuda.get_device_name(0)
    return {"cpu": name, "cpu_kind": kind, "cores": os.cpu_count(), "gpu": gpu}


def _commit() -> str | None:
    import subprocess

    def git(*args):
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    if head and git("status", "--porcelain", "--untracked-files=no"):
        head += "-dirty"
    return head


def _command() -> str:
    """The command line, a script under the project as `python -m module`."""
    import sys

    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if script and script.suffix == ".py" and ROOT in script.parents:
        module = ".".join(script.relative_to(ROOT).with_suffix("").parts)
        return " ".join(["python -m", module, *sys.argv[1:]])
    return " ".join(sys.argv)


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
