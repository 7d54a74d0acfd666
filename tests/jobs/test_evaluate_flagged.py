"""evaluate leaves free-form tickets flagged for holding none of their variables out of
training, and keeps each row's template: a real Parquet folder read through Ray Data."""

from synth.contract import NO_VARIABLES, PERSONA_FIELDS
from synth.io.shards import write_shard


def row(i: int, text: str, error: str | None) -> dict:
    return {
        "id": f"r-{i:08d}",
        "doc_type": "ticket",
        "category": "Complaint",
        "subcategory": "Complaint",
        "label": "Complaint_Complaint",
        "text": text,
        "header": "",
        "entities": [],
        "attributes": {},
        "persona": dict.fromkeys(PERSONA_FIELDS, ""),
        "template_id": "free",
        "model": "m",
        "seed": 0,
        "run_id": "r",
        "prompt_tokens": 1,
        "generated_tokens": 1,
        "error": error,
    }


def test_flagged_rows_are_not_training_examples(tmp_path, ray_local):
    from jobs.evaluate import _read_train

    write_shard(
        tmp_path,
        0,
        [
            row(0, "kept", None),
            row(1, "flagged", NO_VARIABLES),
            row(2, "slot error kept", "slot 2 empty after 3 attempts"),
        ],
    )
    ds, _ = _read_train(str(tmp_path))
    rows = ds.take_all()
    assert sorted(r["text"] for r in rows) == ["kept", "slot error kept"]
    # the template travels with each row: fastText validates on templates held out
    assert set(rows[0]) == {"text", "label", "entities", "template_id"}
    assert {r["template_id"] for r in rows} == {"free"}
