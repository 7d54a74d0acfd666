"""The planned-document record and its Arrow form: what crosses to the actors comes back
equal, field for field, maps in their order."""

from dataclasses import fields

import pyarrow as pa

from synth.config.generate import load_config
from synth.docs import plan_documents
from synth.record import PLANNED, PlannedDocument, planned_documents, planned_table


def test_the_arrow_schema_has_every_field_of_the_record_in_order():
    assert PLANNED.names == [f.name for f in fields(PlannedDocument)]


def test_planned_tickets_survive_the_arrow_round_trip(dp_model):
    cfg = load_config(
        None,
        {
            "num_docs": 24,
            "dp_model": str(dp_model),
            "reference_date": "2026-11-22",
            "prompt_style": {"plain": 1, "chat": 1, "free": 1},
            "templates": "all",
            "value_forms": "all",
            "traits": {"omission": True, "slip_rate": 0.02},
        },
    )
    docs, _ = plan_documents(cfg, "rt")
    table = planned_table(docs)
    assert table.schema == PLANNED and table.num_rows == 24
    assert pa.types.is_map(table.schema.field("entities").type)  # typed, not JSON text
    back = planned_documents(table)
    assert back == docs
    for a, b in zip(back, docs):
        assert list(a.entities) == list(b.entities)  # order decides locator ties
        assert list(a.surface or {}) == list(b.surface or {})
    assert {d.style for d in back} == {"plain", "chat", "free"}
    assert back[5].id == "rt-00000005" and back[5].run_id == "rt"
