"""The input readers (JSONL, JSON, CSV with and without a byte-order mark, Parquet) on
any bytes: a table, or one line naming the file; never a trace, never ids silently
replaced by positions."""

import csv
import io
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synth import ConfigError
from synth.deid.corpus import read_documents

BOM = b"\xef\xbb\xbf"
FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.parametrize("bom", [b"", BOM])
@pytest.mark.parametrize("order", [("id", "text"), ("text", "id")])
def test_a_csv_keeps_its_ids_with_or_without_a_byte_order_mark(tmp_path, bom, order):
    rows = [{"id": "1", "text": "hello"}, {"id": "2", "text": "world"}]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=order)
    writer.writeheader()
    writer.writerows(rows)
    path = tmp_path / "in.csv"
    path.write_bytes(bom + out.getvalue().encode())
    docs = read_documents(str(path), "text", "id", "label", "utf-8")
    assert docs.column("original_id").to_pylist() == ["1", "2"]
    assert docs.column("text").to_pylist() == ["hello", "world"]


def test_a_jsonl_file_with_a_byte_order_mark_reads(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(BOM + b'{"id": "7", "text": "hi"}\n')
    assert read_documents(str(path), "text", "id", "label", "UTF8")["original_id"][0].as_py() == "7"


def one_line(path, error: ConfigError) -> None:
    message = str(error)
    assert "\n" not in message and path.name in message, message


def read_or_refuse(path):
    """The table read, or None after checking the refusal is one line naming the file."""
    try:
        return read_documents(str(path), "text", "id", "label", "utf-8")
    except ConfigError as e:
        one_line(path, e)
        return None


@FUZZ
@given(data=st.binary(max_size=300), name=st.sampled_from(["a.csv", "a.jsonl", "a.json"]))
def test_any_bytes_are_read_or_refused_in_one_line(tmp_path, data, name):
    path = tmp_path / name
    for prefix in (b"", BOM):
        path.write_bytes(prefix + data)
        read_or_refuse(path)


cell = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12)


@FUZZ
@given(
    ids=st.lists(cell, min_size=1, max_size=5, unique=True),
    texts=st.data(),
    bom=st.booleans(),
    id_first=st.booleans(),
)
def test_a_csv_with_ids_keeps_them_or_is_refused(tmp_path, ids, texts, bom, id_first):
    """Whatever the cells hold, ids given are the ids read (never positions)."""
    rows = [{"id": i, "text": texts.draw(cell)} for i in ids]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["id", "text"] if id_first else ["text", "id"])
    writer.writeheader()
    writer.writerows(rows)
    path = tmp_path / "in.csv"
    path.write_bytes((BOM if bom else b"") + out.getvalue().encode())
    docs = read_or_refuse(path)
    if docs is not None:
        assert docs.column("original_id").to_pylist() == [r["id"] for r in rows]


json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | cell,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(cell, inner, max_size=3),
    max_leaves=8,
)
record = st.dictionaries(st.sampled_from(["id", "text", "label", "x"]), json_value, max_size=4)


@FUZZ
@given(records=st.lists(record | json_value, max_size=4), bom=st.booleans())
def test_jsonl_records_of_any_shape_are_read_or_refused(tmp_path, records, bom):
    path = tmp_path / "in.jsonl"
    lines = "".join(json.dumps(r) + "\n" for r in records)
    path.write_bytes((BOM if bom else b"") + lines.encode())
    docs = read_or_refuse(path)
    given_ids = [r.get("id") for r in records if isinstance(r, dict)]
    if docs is not None and all(i is not None for i in given_ids):
        assert docs.column("original_id").to_pylist() == [str(i) for i in given_ids]


@FUZZ
@given(
    columns=st.dictionaries(
        st.sampled_from(["id", "text", "label", "x"]),
        st.sampled_from(
            [
                pa.array(["a", "b"]),
                pa.array([1, 2]),
                pa.array([None, "b"]),
                pa.array([b"a", b"b"]),
                pa.array([1.5, None]),
                pa.array([["a"], []]),
                pa.array([True, False]),
            ]
        ),
        max_size=4,
    )
)
def test_parquet_of_any_columns_is_read_or_refused(tmp_path, columns):
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table(columns) if columns else pa.table({"x": pa.array([], pa.int8())}), path)
    docs = read_or_refuse(path)
    if docs is not None and "id" in columns:
        assert docs.column("original_id").to_pylist() == [str(v) for v in columns["id"].to_pylist()]
