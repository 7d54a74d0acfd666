"""Our annotation of real people's writing (eval/data/real_writing.annotations.jsonl):
offsets and a hash per text, read against the texts copied beside it
(eval/data/real_writing/, with their licences)."""

import json

from synth.deid.types import personal_types
from tests.conftest import ROOT

ANNOTATIONS = ROOT / "eval" / "data" / "real_writing.annotations.jsonl"


def rows() -> list[dict]:
    return [json.loads(line) for line in ANNOTATIONS.read_text().splitlines()]


def test_the_set_is_offsets_of_known_types_over_at_least_100_texts():
    annotated = rows()
    assert len(annotated) >= 100
    assert len({(r["corpus"], r["id"]) for r in annotated}) == len(annotated)
    assert {r["corpus"] for r in annotated} == {"cfpb_narratives.jsonl", "enron_hr.jsonl"}
    for r in annotated:
        assert set(r) == {"corpus", "id", "sha256", "spans"}  # no text is copied in
        spans = r["spans"]
        assert spans == sorted(spans)
        for (a, b, kind), after in zip(spans, [*spans[1:], None]):
            assert 0 <= a < b and kind in personal_types().names
            assert after is None or b <= after[0]  # no overlaps


def test_every_annotation_reads_against_the_text_it_was_made_on():
    from benchmarks.deid.detector import real_writing

    s = real_writing(ANNOTATIONS)
    assert len(s["docs"]) == len(rows())
    for doc in s["docs"]:
        for a, b, _ in doc.personal:
            piece = doc.text[a:b]
            assert piece.strip() == piece and b <= len(doc.text), piece
