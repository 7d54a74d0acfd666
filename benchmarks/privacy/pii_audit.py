"""The personal-data audit (synth/deid/audit.py) over a finished generate output: what
Presidio finds in the text that hrsynth did not plant, by type.

    python -m benchmarks.privacy.pii_audit OUT_DIR [--examples 2]

Prints the counts and a few findings in context (to the terminal only: they may be
strings a model memorised), and writes the counts to benchmarks/results/pii_audit.json.
"""

import argparse
import json
import time
from collections import Counter

import pyarrow.parquet as pq

from benchmarks.report import RESULTS_DIR, write_results
from synth.deid.analyzer.detectors import make_detectors
from synth.deid.audit import DEFAULT_TYPES, planted, unplanted

RESULTS = RESULTS_DIR / "pii_audit.json"


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("output", help="a generate output folder")
    p.add_argument("--examples", type=int, default=2)
    args = p.parse_args(argv)
    rows = [r for r in pq.read_table(args.output).sort_by("id").to_pylist() if r["text"]]
    (presidio,) = make_detectors(["presidio"])
    started = time.perf_counter()
    found = presidio.detect([r["text"] for r in rows])
    seconds = time.perf_counter() - started
    per_type, with_findings, examples = Counter(), 0, []
    for row, spans in zip(rows, found):
        ranges = planted(row["text"], row["entities"], row["persona"])
        leaks = unplanted(row["text"], spans, ranges, DEFAULT_TYPES)
        with_findings += bool(leaks)
        per_type.update(s.type for s in leaks)
        for s in leaks:
            examples.append((row["id"], s.type, row["text"][max(0, s.start - 40) : s.end + 40]))
    result = {
        "output": args.output,
        "documents": len(rows),
        "rows_with_findings": with_findings,
        "findings_per_type": dict(sorted(per_type.items())),
        "types_audited": list(DEFAULT_TYPES),
        "seconds_per_document": seconds / max(1, len(rows)),
    }
    write_results(RESULTS.name, result, indent=1)
    print(json.dumps(result, indent=1))
    for doc_id, type_, context in examples[: args.examples]:
        print(f"{doc_id} {type_}: …{context}…".replace("\n", " "))
    return result


if __name__ == "__main__":
    main()
