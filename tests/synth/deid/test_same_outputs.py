"""De-identification writes, byte for byte, what it wrote before synth/deid became an
analyzer, an anonymizer and a lexicon (commit 3037b9c): on the dev sets, the real
public writing, the public resumes and the planted ids, 367 documents.

The detectors' raw spans are replayed from tests/data/golden/deid_presidio_replay.jsonl
(Presidio's, recorded with the outputs by benchmarks/deid/outputs_snapshot.py --replay),
so what is checked is everything after detection, the rules and the operators, on
every CPU; the full runs, the built detector's included, are compared by that script
(benchmarks/results/deid_same_outputs.json)."""

import hashlib
import json
from collections import defaultdict
from pathlib import Path

import pytest

from benchmarks.deid.outputs_snapshot import reference_sets
from synth.deid.pipeline import deidentify
from synth.deid.spans import Span

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "deid_presidio_replay.jsonl"


class Replayed:
    """A detector answering what Presidio answered when the golden was recorded."""

    name = "presidio"

    def __init__(self, spans: list[list[list]]):
        self.spans = spans

    def detect(self, texts):
        assert len(texts) == len(self.spans)
        return [[Span(*s) for s in found] for found in self.spans]


def digest(row) -> str:
    record = {
        "text": row.text,
        "spans": [[s.start, s.end, s.type, s.detector] for s in row.spans],
        # What the golden recorded; the offsets the key gained (issue 95) are checked to
        # point at each replacement instead.
        "key": [{k: e[k] for k in ("type", "original", "replacement")} for e in row.key],
    }
    for entry in row.key:
        assert row.text[entry["start"] : entry["end"]] == entry["replacement"]
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def golden() -> dict:
    by_set = defaultdict(list)
    for line in GOLDEN.read_text().splitlines():
        record = json.loads(line)
        by_set[record["set"]].append(record)
    return by_set


@pytest.mark.parametrize("method", ["tag", "surrogate"])
def test_outputs_match_the_golden_byte_for_byte(golden, method):
    sets = reference_sets()
    assert sorted(sets) == sorted(golden)
    differ = []
    for name, records in golden.items():
        docs = dict(sets[name])
        ids = [r["id"] for r in records]
        texts = [docs[i] for i in ids]
        detector = Replayed([r["raw"] for r in records])
        for record, row in zip(records, deidentify(ids, texts, [detector], method, seed=0)):
            if digest(row) != record[method]:
                differ.append(record["id"])
    assert differ == [], f"{len(differ)} of {sum(map(len, golden.values()))} documents differ"


def test_a_changed_rule_is_seen(golden, monkeypatch):
    """The check can fail: a rule left out changes the outputs it guards."""
    from synth.deid.analyzer import rules

    monkeypatch.setattr(rules, "DECIDING", tuple(r for r in rules.DECIDING if r.NAME != "places"))
    records = golden["dev_people"]
    docs = dict(reference_sets()["dev_people"])
    ids = [r["id"] for r in records]
    rows = deidentify(
        ids, [docs[i] for i in ids], [Replayed([r["raw"] for r in records])], "tag", 0
    )
    assert sum(digest(row) != r["tag"] for row, r in zip(rows, records)) > 0
