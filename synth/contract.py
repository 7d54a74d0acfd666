"""The output contract: one Parquet row per document (docs/output.md).

The Arrow schema below is the single place the fields are defined; the generation job,
the tests and evaluation all read it from here.
"""

import re

import pyarrow as pa

# The persona's fields, as every row carries them (synth.kinds.persona fills them).
PERSONA_FIELDS = (
    "first_name",
    "last_name",
    "name",
    "email",
    "company",
    "company_domain",
    "company_email",
    "country_code",
    "country",
    "nationality",
    "locale",
)
# exact: the text is the sampled value; rendered: the text is the surface form the value
# was planted in ('next Monday' for 2026-11-30); heuristic: the model restated it.
MATCHES = ("exact", "rendered", "heuristic")
# The `error` of a free-form ticket in which the locator finds none of its variables: kept
# (its label is what was asked for) but flagged, counted in the manifest, and left out of
# training by evaluate.
NO_VARIABLES = "free-form text holds none of its variables"
ENTITY = pa.struct(
    [
        ("start", pa.int32()),
        ("end", pa.int32()),
        ("label", pa.string()),
        ("value", pa.string()),
        ("match", pa.string()),
    ]
)
PERSONA = pa.struct([(name, pa.string()) for name in PERSONA_FIELDS])
# The sampled variables as key/value pairs: a list of structs, which Hugging Face
# `datasets`, pandas, Polars, DuckDB and Spark all hold (an Arrow map, version 1, is not
# readable by `datasets`).
ATTRIBUTE = pa.struct([("key", pa.string()), ("value", pa.string())])
# The output contract's version, in the manifest and every shard's metadata; 2: the
# attributes became a list of {key, value} (1: map<string, string>); 3: fallback_slots.
CONTRACT_VERSION = 3

SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("doc_type", pa.string()),
        ("category", pa.string()),
        ("subcategory", pa.string()),
        ("label", pa.string()),
        ("text", pa.string()),
        ("header", pa.string()),
        ("entities", pa.list_(ENTITY)),
        ("attributes", pa.list_(ATTRIBUTE)),
        ("persona", PERSONA),
        ("template_id", pa.string()),
        ("model", pa.string()),
        ("seed", pa.int64()),
        ("run_id", pa.string()),
        # Per-row accounting (beyond DESIGN's list): tokens in and out, slot failures.
        ("prompt_tokens", pa.int32()),
        ("generated_tokens", pa.int32()),
        ("error", pa.string()),
        # The slots (1-based) the model left empty after its retries, written instead from
        # the document's own attributes (a CV section's skills, duties, languages): the
        # row is whole and labelled, its text there is the planner's, not the model's.
        ("fallback_slots", pa.list_(pa.int32())),
    ]
)


def to_table(rows: list[dict]) -> pa.Table:
    """Rows (dicts with every field) -> a table in contract order and types."""
    fixed = [
        {**r, "attributes": [{"key": k, "value": v} for k, v in r["attributes"].items()]}
        for r in rows
    ]
    return pa.Table.from_pylist(fixed, schema=SCHEMA)


def check_row(row: dict) -> list[str]:
    """Violations of the contract's own rules in one row, as readable strings (empty when
    valid); synth.kinds.check_row adds the document kind's rules."""
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
        if e["match"] == "exact" and text[e["start"] : e["end"]] != e["value"]:
            problems.append(f"exact entity {e['label']} does not equal its value")
        if e["match"] not in MATCHES:
            problems.append(f"entity {e['label']} has match {e['match']!r}")
        last_end = max(last_end, e["end"])
    return problems


def unmarked_values(text: str, entities: list[dict], attributes) -> int:
    """Occurrences of a planted value (as sampled) in the text that no entity span covers:
    label noise that teaches a detector to leave such values alone. Whole words,
    case-insensitive; values under 4 characters are skipped (too common to be planted)."""
    covered = [(e["start"], e["end"]) for e in entities]
    if not isinstance(attributes, dict):  # the contract's key/value pairs
        attributes = {a["key"]: a["value"] for a in attributes}
    count = 0
    for value in {str(v).strip() for v in attributes.values()}:
        if len(value) < 4:
            continue
        for m in re.finditer(r"(?<!\w)" + re.escape(value) + r"(?!\w)", text, re.IGNORECASE):
            if not any(s <= m.start() and m.end() <= e for s, e in covered):
                count += 1
    return count
