"""De-identification's speed: the job against Presidio alone, in the same run, on
tickets and resumes (issue 96's table).

Sets (real writing, several shapes; no text is written to the results):
- tickets: the 223 human-written tickets and mails of eval/data (dev_tickets,
  dev_people, real_writing's Enron HR mail and CFPB narratives), `--copies` times;
- resumes: the 30 public resumes of eval/data/resumes_public, `--copies` times.
Each copy is one shard (--shard-size is the set's size), so no shard holds a document
twice and no parse is shared between copies (synth.deid.parsing forgets each batch's).

Rows, each a process of its own:
- presidio alone: Presidio's AnalyzerEngine with spaCy sm, nothing else, one process
  (the baseline: what a team would run instead);
- the job with --detectors presidio;
- the job's defaults (presidio + the built detector), at float32 on one actor, at the
  CPU's precision (synth.precision) on one actor, and as they are (one actor per CPU);
- with --before DIR, the defaults run by that checkout (git worktree add DIR COMMIT).
Per row: documents per second over the whole run (Ray's start and the models' loading
included), over the shards (from the end of the first round, each actor's first shard,
to the last shard), the ratio per core to
Presidio alone, and each actor's peak resident memory.

    python -m benchmarks.speed.deidentify [--sets tickets,resumes] [--copies 10,7] \\
        [--before /tmp/before] [--output deid_speed.json] [--profile]

`--profile` adds py-spy's shares of the defaults' document steps, in-process, one thread.
Prints a table and writes benchmarks/results/NAME. Measure with nothing else running.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.report import ROOT, print_table, write_results

DATA = ROOT / "eval" / "data"
SETS = {
    "tickets": [
        DATA / "dev_tickets.jsonl",
        DATA / "dev_people.jsonl",
        DATA / "real_writing" / "enron_hr.jsonl",
        DATA / "real_writing" / "cfpb_narratives.jsonl",
    ],
    "resumes": [DATA / "resumes_public" / "resumes.jsonl"],
}
COPIES = {"tickets": 10, "resumes": 7}
COLUMNS = [
    ("row", "row", ""),
    ("docs_per_s", "docs/s (run)", ".1f"),
    ("docs_per_s_over_shards", "docs/s (shards)", ".1f"),
    ("per_core_vs_presidio_alone", "per core vs Presidio alone", ".3f"),
    ("actors", "actors", ""),
    ("memory", "actor peak RSS (MiB)", ""),
]

PRESIDIO_ALONE = """
import json, sys, time
from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NlpEngineProvider
from synth.nlp import SPACY_MODEL
texts = [json.loads(line)["text"] for line in open(sys.argv[1])]
nlp = NlpEngineProvider(nlp_configuration={"nlp_engine_name": "spacy",
    "models": [{"lang_code": "en", "model_name": SPACY_MODEL}]}).create_engine()
engine = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
engine.analyze(texts[0], language="en")
started = time.perf_counter()
for text in texts:
    engine.analyze(text, language="en")
print(json.dumps({"seconds": time.perf_counter() - started}))
"""


def texts_of(name: str) -> list[str]:
    out = []
    for path in SETS[name]:
        out += [json.loads(line)["text"] for line in path.read_text().splitlines() if line]
    return out


def write_input(folder: Path, name: str, copies: int) -> tuple[Path, int]:
    texts = texts_of(name)
    path = folder / f"{name}.jsonl"
    with path.open("w") as f:
        for copy in range(copies):
            for i, text in enumerate(texts):
                f.write(json.dumps({"id": f"{copy}-{i}", "text": text}) + "\n")
    return path, len(texts)


class ActorMemory:
    """The peak resident memory of each de-identifying actor (Ray names its process
    `ray::StepsActor…`; an older checkout's `ray::Scrubber…`), sampled twice a second."""

    NAMES = ("StepsActor", "Scrubber")

    def __init__(self):
        self.peak: dict[int, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        import psutil

        while not self.stop.is_set():
            for proc in psutil.process_iter(["pid", "cmdline"]):
                try:
                    line = " ".join(proc.info["cmdline"] or [])
                    if line.startswith("ray::") and any(n in line for n in self.NAMES):
                        rss = proc.memory_info().rss
                        self.peak[proc.pid] = max(self.peak.get(proc.pid, 0), rss)
                except (psutil.NoSuchProcess, psutil.AccessDenied):
                    continue
            self.stop.wait(0.5)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def job_row(checkout: Path, path: Path, size: int, documents: int, extra: list[str]) -> dict:
    """One `hrsynth deidentify` run in `checkout`: rates and each actor's peak memory."""
    with tempfile.TemporaryDirectory(prefix="deid-speed-") as tmp:
        out = Path(tmp) / "out"
        cmd = [sys.executable, "-m", "jobs.cli", "deidentify", "--input", str(path)]
        cmd += ["--output", str(out), "--method", "surrogate", "--shard-size", str(size)]
        started = time.perf_counter()
        shards_at = []
        with ActorMemory() as memory:
            proc = subprocess.Popen(
                cmd + extra, cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, env={**os.environ, "PYTHONPATH": str(checkout)},  # Ray's workers too
            )  # fmt: skip
            lines = []
            for line in proc.stdout:
                lines.append(line)
                if line.startswith("shard ") and " written" in line:
                    shards_at.append(time.perf_counter())
            proc.wait()
        wall = time.perf_counter() - started
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd + extra)} failed:\n{''.join(lines[-20:])}")
    actors = len(memory.peak) or 1
    # from the end of the first round (each actor's first shard, which carries its start)
    # to the last shard
    later = len(shards_at) - actors
    steady = later * size / (shards_at[-1] - shards_at[actors - 1]) if later > 0 else None
    return {
        "documents": documents,
        "wall_s": round(wall, 1),
        "docs_per_s": round(documents / wall, 2),
        "docs_per_s_over_shards": round(steady, 2) if steady else None,
        "actors": actors,
        "actor_peak_rss_mib": sorted(round(v / 2**20) for v in memory.peak.values()),
    }


def presidio_alone(path: Path, documents: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PRESIDIO_ALONE, str(path)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    seconds = json.loads(out.stdout.strip().splitlines()[-1])["seconds"]
    return {
        "documents": documents,
        "seconds": round(seconds, 1),
        "docs_per_s": round(documents / seconds, 2),
    }


def rows_for(name: str, copies: int, before: Path | None, folder: Path) -> dict:
    path, size = write_input(folder, name, copies)
    documents = size * copies
    rows = {"presidio alone, one process": presidio_alone(path, documents)}
    runs = {
        "job --detectors presidio": (ROOT, ["--detectors", "presidio"]),
        "job defaults, float32, 1 actor": (ROOT, ["--encoder-precision", "float32", "--num-actors", "1"]),
        "job defaults, auto precision, 1 actor": (ROOT, ["--num-actors", "1"]),
        "job defaults": (ROOT, []),
    }  # fmt: skip
    if before is not None:
        runs = {"job defaults, before": (before, [])} | runs
    for label, (checkout, extra) in runs.items():
        print(f"{name}: {label} …", flush=True)
        rows[label] = job_row(checkout, path, size, documents, extra)
    base = rows["presidio alone, one process"]["docs_per_s"]
    cores = os.cpu_count() or 1  # the job has the machine; Presidio alone one core
    for label, row in rows.items():
        if label.startswith("job"):
            rate = row["docs_per_s_over_shards"] or row["docs_per_s"]
            row["per_core_vs_presidio_alone"] = round(rate / cores / base, 3)
    return {"documents": documents, "unique": size, "copies": copies, "rows": rows}


def profile_shares(name: str) -> dict | None:
    """py-spy's shares of the defaults' document steps, in-process, one thread."""
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        return None
    with tempfile.TemporaryDirectory(prefix="deid-profile-") as tmp:
        raw = Path(tmp) / "raw.txt"
        subprocess.run(
            [str(spy), "record", "-r", "200", "-o", str(raw), "--format", "raw", "--",
             sys.executable, "-m", "benchmarks.speed.deidentify", "--in-process", name],
            cwd=ROOT, capture_output=True, check=True,
        )  # fmt: skip
        return shares(raw.read_text())


# Where a sample's stack says it is: (function, file) of a frame as py-spy names them
# (Class.method, the file's short path); a sample counts for the first part whose frame
# its stack holds (in this order: the encoder parts before what calls them).
PARTS = {
    "BIO model (encoder)": ("predict_word_tags", "encoder.py"),
    "sentence decision (encoder)": ("sentence_embeddings", "encoder.py"),
    "sentence decision (clauses)": ("described_spans", "described.py"),
    "Presidio: spaCy parse": ("SharedParse.prepare", "detectors.py"),
    "Presidio: recognizers": ("PresidioDetector._analyze", "detectors.py"),
    "BIO output steps (hygiene, kinds)": ("NerDetector.detect", "detectors.py"),
    "decision rules, name parts": ("merged", "analyze.py"),
    "anonymize": ("Anonymize.run", "pipeline.py"),
}
FRAME = re.compile(r"([^;\s(]+) \(([^:;)]+\.py)")


def shares(raw: str) -> dict:
    """Per part (PARTS), its share of the samples inside the document steps."""
    counts = dict.fromkeys([*PARTS, "other"], 0)
    total = 0
    for line in raw.splitlines():
        stack, _, n = line.rpartition(" ")
        frames = {m.groups() for m in FRAME.finditer(stack)}
        if ("run_steps", "synth/steps.py") not in frames:
            continue
        total += int(n)
        part = next(
            (
                p
                for p, (function, where) in PARTS.items()
                if any(
                    (f == function or f.endswith("." + function)) and path.endswith(where)
                    for f, path in frames
                )
            ),
            "other",
        )
        counts[part] += int(n)
    return {p: round(n / total, 3) for p, n in counts.items()} | {"samples": total}


def in_process(name: str) -> None:
    """The defaults' document steps over the set once, one thread (what --profile samples)."""
    import torch

    torch.set_num_threads(1)
    from synth.deid.analyzer.detectors import make_detectors
    from synth.deid.pipeline import deidentify
    from synth.deid.registry import default_detector

    texts = texts_of(name)
    detectors = make_detectors(["presidio", "ner"], default_detector()["path"], precision="auto")
    deidentify(["warm"], texts[:1], detectors, "surrogate", 0)
    deidentify([str(i) for i in range(len(texts))], texts, detectors, "surrogate", 0)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--sets", default="tickets,resumes")
    p.add_argument("--copies", help="copies per set, e.g. 10,7 (default: tickets 10, resumes 7)")
    p.add_argument("--before", help="a checkout of the code before (git worktree add DIR COMMIT)")
    p.add_argument("--output", default="deid_speed.json")
    p.add_argument("--profile", action="store_true", help="add py-spy's shares, in-process")
    p.add_argument("--in-process", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.in_process:
        in_process(args.in_process)
        return {}
    from synth.deid.registry import default_detector
    from synth.generation.backends import cpu_name
    from synth.precision import resolve_precision

    if default_detector() is None:
        raise SystemExit("no detector is built: run `make detector` first")
    names = args.sets.split(",")
    copies = [int(c) for c in args.copies.split(",")] if args.copies else [COPIES[n] for n in names]
    results = {
        "cpu": cpu_name(),
        "cpus": os.cpu_count(),
        "encoder_precision_auto": resolve_precision("auto"),
        "forced": {k: v for k, v in os.environ.items() if k.startswith(("ATEN_", "ONEDNN_", "CT2_"))},
        "sets": {},
    }  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="deid-speed-in-") as folder:
        for name, n in zip(names, copies):
            before = Path(args.before).resolve() if args.before else None
            results["sets"][name] = rows_for(name, n, before, Path(folder))
            if args.profile:
                results["sets"][name]["profile_shares"] = profile_shares(name)
    for name, entry in results["sets"].items():
        print(
            f"\n{name}: {entry['documents']} documents ({entry['unique']} × {entry['copies']}), "
            f"{results['cpu']}, auto = {results['encoder_precision_auto']}"
        )
        rows = [{"row": label, **row} for label, row in entry["rows"].items()]
        for row in rows:
            row["memory"] = " ".join(map(str, row.get("actor_peak_rss_mib", []))) or None
        print_table(rows, COLUMNS)
        if entry.get("profile_shares"):
            print_table(
                [{"part": k, "share": v} for k, v in entry["profile_shares"].items()],
                [("part", "part", ""), ("share", "share", "")],
            )
    write_results(args.output, results, indent=2)
    return results


if __name__ == "__main__":
    main()
