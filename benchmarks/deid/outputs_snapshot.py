"""Every de-identified output of the reference sets, written so that two checkouts can be
compared byte for byte (a restructuring must change nothing a user receives).

Sets: the dev sets (eval/data/dev_people, dev_tickets, dev_cvs: ours), the real public
writing (eval/data/real_writing: Enron HR mails, CFPB narratives), the public resumes
(eval/data/resumes_public) and the planted ids (benchmarks.deid.deid_planted, 6 a type).
Detector sets: `presidio`, and `presidio,ner` with the registered built detector when
one is built. Methods: tag and surrogate (seed 0, country US).

    python -m benchmarks.deid.outputs_snapshot --output /tmp/before
    python -m benchmarks.deid.outputs_snapshot --output /tmp/after --compare /tmp/before

One JSONL per set × detectors × method (id, text, spans, key), a digests.json of their
SHA-256, and with --compare the files that differ. --replay FILE also writes what
tests/synth/deid/test_same_outputs.py replays: each document's raw Presidio spans
(before any rule) and its tag and surrogate outputs.
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

from benchmarks.report import ROOT

EVAL = ROOT / "eval" / "data"


def reference_sets() -> dict[str, list[tuple[str, str]]]:
    """{set: [(id, text)]}, in file order."""
    from benchmarks.deid.deid_planted import planted_set

    def jsonl(path):
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    sets = {}
    for name in ("dev_people", "dev_tickets", "dev_cvs"):
        sets[name] = [
            (f"{name}-{i}", d["text"]) for i, d in enumerate(jsonl(EVAL / f"{name}.jsonl"))
        ]
    for corpus in ("enron_hr", "cfpb_narratives"):
        sets[corpus] = [
            (d["id"], d["text"]) for d in jsonl(EVAL / "real_writing" / f"{corpus}.jsonl")
        ]
    sets["resumes"] = [
        (d["id"], d["text"]) for d in jsonl(EVAL / "resumes_public" / "resumes.jsonl")
    ]
    planted = planted_set(6, seed=0)
    sets["planted"] = [(f"planted-{i}", d["text"]) for i, d in enumerate(planted)]
    return sets


def detector_sets(precision: str = "float32") -> dict[str, list]:
    """`precision`: the built detector's encoder (synth.precision)."""
    from synth.deid.analyzer.detectors import make_detectors
    from synth.deid.registry import default_detector

    out = {"presidio": make_detectors(["presidio"])}
    built = default_detector()
    if built:
        out["presidio+ner"] = make_detectors(
            ["presidio", "ner"], built["path"], precision=precision
        )
    return out


def rows(ids, texts, detectors, method) -> list[dict]:
    from synth.deid.pipeline import deidentify

    done = deidentify(ids, texts, detectors, method, seed=0, country="US")
    return [
        {
            "id": doc_id,
            "text": r.text,
            "spans": [[s.start, s.end, s.type, s.detector] for s in r.spans],
            "key": _key(r),
            "error": r.error,
        }
        for doc_id, r in zip(ids, done)
    ]


def _key(result) -> list[dict]:
    """The key as snapshots before issue 95 recorded it (type, original, replacement);
    the offsets it gained there are checked to point at each replacement instead."""
    for entry in result.key:
        assert result.text[entry["start"] : entry["end"]] == entry["replacement"]
    return [{k: e[k] for k in ("type", "original", "replacement")} for e in result.key]


def lines(records: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


def replay_digest(row: dict) -> str:
    """An output's text, spans and key as the replay test digests them (16 hex digits of
    the SHA-256 of their sorted JSON)."""
    record = {k: row[k] for k in ("text", "spans", "key")}
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def replay_records(sets, presidio) -> list[dict]:
    """Per document: its raw Presidio spans on the normalised text and both outputs'
    digests."""
    from synth.deid.analyzer.normalise import normalise

    out = []
    for name, docs in sets.items():
        ids, texts = [i for i, _ in docs], [t for _, t in docs]
        raw = [[] for _ in texts]
        for detector in presidio:
            found = detector.detect([normalise(t).text for t in texts])
            for spans, more in zip(raw, found):
                spans += more
        outputs = {m: rows(ids, texts, presidio, m) for m in ("tag", "surrogate")}
        for i, doc_id in enumerate(ids):
            out.append(
                {
                    "set": name,
                    "id": doc_id,
                    "raw": [[s.start, s.end, s.type, s.detector] for s in raw[i]],
                    **{m: replay_digest(outputs[m][i]) for m in outputs},
                }
            )
    return out


def documents_differing(before: Path, after: Path) -> str:
    """How many documents of a file differ, and in what (text, spans, key)."""
    if not (before.exists() and after.exists()):
        return "only in one"
    old = [json.loads(line) for line in before.read_text().splitlines()]
    new = [json.loads(line) for line in after.read_text().splitlines()]
    parts = {k: sum(a[k] != b[k] for a, b in zip(old, new)) for k in ("text", "spans", "key")}
    differing = sum(a != b for a, b in zip(old, new))
    return f"{differing} of {len(new)} documents differ ({parts})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", required=True, type=Path)
    parser.add_argument("--compare", type=Path, help="an earlier --output to compare with")
    parser.add_argument("--replay", type=Path, help="also write the replay file here")
    parser.add_argument(
        "--precision", default="float32", help="the built detector's encoder: float32, bfloat16"
    )
    args = parser.parse_args(argv)
    args.output.mkdir(parents=True, exist_ok=True)
    sets, detectors = reference_sets(), detector_sets(args.precision)
    digests = {}
    for name, docs in sets.items():
        ids, texts = [i for i, _ in docs], [t for _, t in docs]
        for label, made in detectors.items():
            for method in ("tag", "surrogate"):
                data = lines(rows(ids, texts, made, method))
                file = f"{name}.{label}.{method}.jsonl"
                (args.output / file).write_bytes(data)
                digests[file] = hashlib.sha256(data).hexdigest()
                print(f"{file:42} {len(docs):4} documents  {digests[file][:16]}")
    (args.output / "digests.json").write_text(json.dumps(digests, indent=1) + "\n")
    if args.replay:
        args.replay.write_bytes(lines(replay_records(sets, detectors["presidio"])))
    if args.compare:
        before = json.loads((args.compare / "digests.json").read_text())
        differ = sorted(
            f for f in before.keys() | digests.keys() if before.get(f) != digests.get(f)
        )
        print(
            f"{len(digests) - len(differ)} of {len(digests)} files byte-identical; differ: {differ}"
        )
        for file in differ:
            print(f"  {file}: {documents_differing(args.compare / file, args.output / file)}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
