"""The personal-data audit (synth/deid/audit.py) over a finished generate output: what
the analyze step (Presidio and the decision rules, as generate's audit reads since issue
95) finds in the text that hrsynth did not plant, by type, beside what Presidio's raw
spans found (the audit before).

    python -m benchmarks.privacy.pii_audit OUT_DIR [--examples 2]

Prints the counts and a few findings in context (to the terminal only: they may be
strings a model memorised), and writes the counts to benchmarks/results/pii_audit.json.
"""

import argparse
import json
import time
from collections import Counter

from benchmarks.report import RESULTS_DIR, write_results
from synth.deid.analyzer.analyze import Analyze, found_in
from synth.deid.analyzer.detectors import make_detectors
from synth.deid.audit import DEFAULT_TYPES, planted, unplanted
from synth.io.shards import shard_dataset

RESULTS = RESULTS_DIR / "pii_audit.json"


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("output", help="a generate output folder")
    p.add_argument("--examples", type=int, default=2)
    args = p.parse_args(argv)
    columns = ["id", "text", "entities", "persona"]
    table = shard_dataset(args.output, columns).sort_by("id")
    rows = [r for r in table.to_pylist() if r["text"]]
    (presidio,) = make_detectors(["presidio"])
    texts = [r["text"] for r in rows]
    started = time.perf_counter()
    raw = presidio.detect(texts)  # the audit before issue 95: Presidio's spans as found
    raw_s = time.perf_counter() - started
    started = time.perf_counter()
    analyzed = found_in(texts, Analyze([presidio]))  # generate's audit now
    analyzed_s = time.perf_counter() - started
    result = {"output": args.output, "documents": len(rows), "types_audited": list(DEFAULT_TYPES)}
    examples = []
    for name, found, seconds in (("analyze_step", analyzed, analyzed_s), ("raw", raw, raw_s)):
        per_type, with_findings = Counter(), 0
        for row, spans in zip(rows, found):
            ranges = planted(row["text"], row["entities"], row["persona"])
            leaks = unplanted(row["text"], spans, ranges, DEFAULT_TYPES)
            with_findings += bool(leaks)
            per_type.update(s.type for s in leaks)
            examples += [(name, row["id"], s.type, _around(row["text"], s)) for s in leaks]
        result[name] = {
            "rows_with_findings": with_findings,
            "findings_per_type": dict(sorted(per_type.items())),
            "seconds_per_document": round(seconds / max(1, len(rows)), 4),
        }
    write_results(RESULTS.name, result, indent=1)
    print(json.dumps(result, indent=1))
    for how, doc_id, type_, context in examples[: args.examples]:
        print(f"{how} {doc_id} {type_}: …{context}…".replace("\n", " "))
    return result


def _around(text: str, span) -> str:
    return text[max(0, span.start - 40) : span.end + 40]


if __name__ == "__main__":
    main()
