"""The documents to de-identify (JSONL, JSON, CSV or Parquet with a text field, an
optional id and label) and the shareable rows that come out (DEID_SCHEMA)."""

import hashlib
import json
from pathlib import Path

import pyarrow as pa

from synth import ConfigError

SPAN = pa.struct(
    [
        ("start", pa.int32()),
        ("end", pa.int32()),
        ("type", pa.string()),
        ("detector", pa.string()),
    ]
)
# One shareable document: no original value, no offsets into the original.
DEID_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("text", pa.string()),
        ("label", pa.string()),
        ("spans", pa.list_(SPAN)),
        ("method", pa.string()),
        ("error", pa.string()),
    ]
)
KEY_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("type", pa.string()),
        ("original", pa.string()),
        ("replacement", pa.string()),
    ]
)
FORMATS = (".jsonl", ".json", ".csv", ".parquet")


def read_documents(
    source: str,
    text_field: str = "text",
    id_field: str = "id",
    label_field: str = "label",
    encoding: str = "utf-8",
) -> pa.Table:
    """(id, text, label) for every document in `source`, a file or a folder of files of
    one format; a missing id becomes the document's position, a missing label null.

    Errors name the file, the line and what is wrong, never the content: the input is
    private, and messages reach consoles and logs."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in FORMATS)
        if not files:
            raise ConfigError(f"--input {source}: no {'/'.join(FORMATS)} files in the folder")
    elif path.is_file():
        files = [path]
    else:
        raise ConfigError(f"--input {source}: no such file or folder")
    table = pa.concat_tables([_read_one(f, encoding) for f in files], promote_options="permissive")
    if table.num_rows == 0:
        raise ConfigError(f"--input {source}: no documents in it")
    if text_field not in table.column_names:
        raise ConfigError(
            f"--input {source}: no text field '{text_field}' (fields: "
            f"{', '.join(table.column_names)}); name it with --text-field"
        )
    texts = table.column(text_field).to_pylist()
    empty = [i for i, t in enumerate(texts) if not isinstance(t, str)]
    if empty:
        raise ConfigError(
            f"--input {source}: field '{text_field}' is missing or not text in "
            f"{len(empty)} document(s), the first at position {empty[0]}"
        )
    ids = (
        [str(i) for i in table.column(id_field).to_pylist()]
        if id_field in table.column_names
        else [str(i) for i in range(table.num_rows)]
    )
    if len(set(ids)) != len(ids):
        raise ConfigError(f"--input {source}: field '{id_field}' repeats ids; ids must be unique")
    labels = (
        [None if v is None else str(v) for v in table.column(label_field).to_pylist()]
        if label_field in table.column_names
        else [None] * table.num_rows
    )
    return pa.table({"id": ids, "text": texts, "label": labels})


def _read_one(path: Path, encoding: str) -> pa.Table:
    if path.suffix not in FORMATS:
        raise ConfigError(f"--input {path}: read {', '.join(FORMATS)} files")
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path)
        if path.suffix == ".csv":
            return _read_csv(path, encoding)
        text = path.read_bytes().decode(encoding)
        if path.suffix == ".json":
            rows = json.loads(text) if text.strip() else []
        else:
            rows = _jsonl_rows(path, text)
    except ConfigError:
        raise
    except UnicodeDecodeError as e:
        raise ConfigError(_not_encoded(path, encoding, f"byte offset {e.start}")) from None
    except json.JSONDecodeError as e:  # its message is fixed text and a position
        raise ConfigError(
            f"--input {path}: cannot read it as JSON ({e.msg}, line {e.lineno} column {e.colno})"
        ) from None
    except (OSError, ValueError, pa.ArrowInvalid) as e:
        raise ConfigError(f"--input {path}: cannot read it ({type(e).__name__})") from None
    if path.suffix in (".json", ".jsonl") and not all(isinstance(r, dict) for r in rows):
        raise ConfigError(f"--input {path}: expected objects with a text field, one per document")
    return pa.Table.from_pylist(rows)


def _jsonl_rows(path: Path, text: str) -> list:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise ConfigError(
                f"--input {path}: line {number} is not JSON ({e.msg} at column {e.colno})"
            ) from None
    return rows


def _read_csv(path: Path, encoding: str) -> pa.Table:
    import pyarrow.csv as pacsv

    try:
        table = pacsv.read_csv(path, pacsv.ReadOptions(encoding=encoding))
    except pa.ArrowInvalid:  # its message quotes the offending row: say where, not what
        raise ConfigError(_csv_problem(path, encoding)) from None
    binary = [f.name for f in table.schema if pa.types.is_binary(f.type)]
    if binary:
        raise ConfigError(_not_encoded(path, encoding, f"column '{binary[0]}'"))
    return table


def _csv_problem(path: Path, encoding: str) -> str:
    """Which line of a CSV has another number of fields than its header."""
    import csv

    try:
        with path.open(encoding=encoding, newline="") as f:
            reader = csv.reader(f)
            width = len(next(reader, []))
            for row in reader:
                if len(row) != width:
                    return (
                        f"--input {path}: line {reader.line_num} has {len(row)} fields where "
                        f"the header has {width}; quote fields that hold a comma"
                    )
    except UnicodeDecodeError as e:
        return _not_encoded(path, encoding, f"byte offset {e.start}")
    except csv.Error as e:
        return f"--input {path}: not a CSV file ({type(e).__name__})"
    return f"--input {path}: cannot read it as CSV"


def _not_encoded(path: Path, encoding: str, where: str) -> str:
    return (
        f"--input {path}: not {encoding} text ({where}); set --encoding to the file's "
        "encoding (e.g. --encoding latin-1) or save it as UTF-8"
    )


def corpus_fingerprint(documents: pa.Table) -> str:
    """A digest of the documents (ids and texts), for refusing to resume on other input."""
    digest = hashlib.sha256()
    for doc_id, text in zip(
        documents.column("id").to_pylist(), documents.column("text").to_pylist()
    ):
        digest.update(doc_id.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()
