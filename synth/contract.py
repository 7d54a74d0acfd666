"""The output contract: one Parquet row per document (DESIGN.md, "Output contract").

The Arrow schema below is the single place the fields are defined; the generation job,
the tests and evaluation all read it from here.
"""

import pyarrow as pa

from synth.persona import PERSONA_FIELDS

ENTITY = pa.struct([
    ("start", pa.int32()), ("end", pa.int32()), ("label", pa.string()),
    ("value", pa.string()), ("match", pa.string()),
])
PERSONA = pa.struct([(name, pa.string()) for name in PERSONA_FIELDS])

SCHEMA = pa.schema([
    ("id", pa.string()),
    ("doc_type", pa.string()),
    ("category", pa.string()),
    ("subcategory", pa.string()),
    ("label", pa.string()),
    ("text", pa.string()),
    ("header", pa.string()),
    ("entities", pa.list_(ENTITY)),
    ("attributes", pa.map_(pa.string(), pa.string())),
    ("persona", PERSONA),
    ("template_id", pa.string()),
    ("model", pa.string()),
    ("seed", pa.int64()),
    ("run_id", pa.string()),
    # Per-row accounting (beyond DESIGN's list): tokens in and out, slot failures.
    ("prompt_tokens", pa.int32()),
    ("generated_tokens", pa.int32()),
    ("error", pa.string()),
])


def to_table(rows: list[dict]) -> pa.Table:
    """Rows (dicts with every field) -> a table in contract order and types."""
    fixed = [{**r, "attributes": list(r["attributes"].items())} for r in rows]
    return pa.Table.from_pylist(fixed, schema=SCHEMA)


def check_row(row: dict) -> list[str]:
    """Contract violations of one row, as readable strings (empty when valid)."""
    problems = []
    text = row["text"]
    if "${" in text or "<generate>" in text:
        problems.append("text still holds a ${…} or <generate>")
    last_end = -1
    for e in sorted(row["entities"], key=lambda e: e["start"]):
        if not 0 <= e["start"] < e["end"] <= len(text):
            problems.append(f"entity {e['label']} has offsets outside the text")
        elif e["start"] < last_end:
            problems.append(f"entity {e['label']} overlaps the previous one")
        if e["match"] == "exact" and text[e["start"]:e["end"]] != e["value"]:
            problems.append(f"exact entity {e['label']} does not equal its value")
        if e["match"] not in ("exact", "heuristic"):
            problems.append(f"entity {e['label']} has match {e['match']!r}")
        last_end = max(last_end, e["end"])
    if row.get("doc_type") == "cv":
        if row["label"] != row["subcategory"] or row["category"] != "CV":
            problems.append("a CV's label must be its role, in subcategory, category 'CV'")
    elif row["label"] != f"{row['category']}_{row['subcategory']}":
        problems.append("label is not category_subcategory")
    return problems
