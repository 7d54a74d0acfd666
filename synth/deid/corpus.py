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
# The longest document read: the detectors read a document whole (its kind, its
# sentences), in time that grows faster than its length; a 1 MB text without
# punctuation made no progress in 240 s (issue 64). Longer documents are refused before
# any work, naming the document.
MAX_DOCUMENT_CHARS = 200_000


def read_documents(
    source: str,
    text_field: str = "text",
    id_field: str = "id",
    label_field: str = "label",
    encoding: str = "utf-8",
    keep_ids: bool = False,
    variables_field: str | None = None,
) -> pa.Table:
    """(id, original_id, text, label) for every document in `source`, a file or a folder
    of files of one format, each record checked on its own: text must be text, an id and
    a label are read as written (`007` stays `007`), a record without a label is
    unlabelled, and ids are all given or all absent (then positions).

    `id` is what the shareable output carries: the document's position in the input,
    unless `keep_ids` (the user says the ids are not personal data); HR exports often key
    rows by e-mail or national id, so the original id goes only to the key.

    With `variables_field`, a `variables` column too: the names of the variables each
    document writes (a list of names, of spans with a `label`, or in CSV a `;`-separated
    text), read by `hrsynth profile` to learn how often each is left out.

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
    fields = {"text": text_field, "id": id_field, "label": label_field}
    columns = {"id": [], "text": [], "label": []}
    variables: list[list[str]] = []
    id_given = None  # whether the first record had an id: the others must agree
    for file in files:
        for where, record in _records(file, encoding):
            row = _checked(record, fields, f"--input {file}: {where}")
            if id_given is None:
                id_given = row["id"] is not None
            elif id_given != (row["id"] is not None):
                raise ConfigError(
                    f"--input {file}: {where}: field '{id_field}' is "
                    f"{'missing' if id_given else 'given'} where the first document "
                    f"{'has one' if id_given else 'has none'}; give every document an id, "
                    "or none (positions are used)"
                )
            for name, values in columns.items():
                values.append(row[name])
            if variables_field is not None:
                variables.append(_variables(record, variables_field, f"--input {file}: {where}"))
    if not columns["text"]:
        raise ConfigError(f"--input {source}: no documents in it")
    positions = [str(i) for i in range(len(columns["text"]))]
    original = columns["id"] if id_given else positions
    if len(set(original)) != len(original):
        raise ConfigError(f"--input {source}: field '{id_field}' repeats ids; ids must be unique")
    longest = max(range(len(original)), key=lambda i: len(columns["text"][i]))
    if len(columns["text"][longest]) > MAX_DOCUMENT_CHARS:
        raise ConfigError(
            f"--input {source}: document {original[longest]!r} holds "
            f"{len(columns['text'][longest]):,} characters, more than {MAX_DOCUMENT_CHARS:,}; "
            "split it into shorter documents (a document is read whole)"
        )
    table = pa.table(
        {
            "id": original if keep_ids else positions,
            "original_id": original,
            "text": columns["text"],
            "label": columns["label"],
        },
        DOCUMENT_SCHEMA,
    )
    if variables_field is not None:
        table = table.append_column("variables", pa.array(variables, pa.list_(pa.string())))
    return table


def _variables(record: dict, field: str, where: str) -> list[str]:
    """The variable names a record lists in `field`: names, spans with a `label`, or a
    `;`-separated text (CSV); a missing or empty field: none."""
    value = record.get(field)
    if value is None or value == "":
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.lstrip().startswith("[") else value.split(";")
        except json.JSONDecodeError:
            raise ConfigError(f"{where}: field '{field}' is not a JSON list") from None
    if not isinstance(value, list):
        value = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(value, list):
        names = [v.get("label") if isinstance(v, dict) else v for v in value]
        if all(isinstance(n, str) and n.strip() for n in names):
            return [n.strip() for n in names]
    raise ConfigError(
        f"{where}: field '{field}' is {_kind(value)}; give a list of variable names or of "
        "spans with a 'label' (in CSV: names separated by ';')"
    )


DOCUMENT_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("original_id", pa.string()),
        ("text", pa.string()),
        ("label", pa.string()),
    ]
)


def _checked(record: dict, fields: dict, where: str) -> dict:
    """One record's text, id and label, or one line saying which field is wrong and how
    (its type, never its value)."""
    text = record.get(fields["text"])
    if fields["text"] not in record:
        raise ConfigError(
            f"{where}: no text field '{fields['text']}' (fields: {', '.join(map(str, record))}); "
            "name it with --text-field"
        )
    if not isinstance(text, str):
        raise ConfigError(f"{where}: field '{fields['text']}' is {_kind(text)}, not text")
    row = {"text": text}
    for name in ("id", "label"):
        value = record.get(fields[name])
        if value is None or (value == "" and name == "label"):
            row[name] = None
        elif isinstance(value, str) and value.strip():
            row[name] = value
        elif isinstance(value, int) and not isinstance(value, bool):
            row[name] = str(value)
        else:
            raise ConfigError(
                f"{where}: field '{fields[name]}' is {_kind(value)}; give text or a whole number"
            )
    return row


def _kind(value) -> str:
    if value is None:
        return "empty"
    if isinstance(value, str):
        return "blank text"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _records(path: Path, encoding: str):
    """(where, record) for each record of one file: `where` says line or row, for messages."""
    if path.suffix not in FORMATS:
        raise ConfigError(f"--input {path}: read {', '.join(FORMATS)} files")
    try:
        if path.suffix == ".parquet":
            yield from _parquet_records(path)
            return
        if path.suffix == ".csv":
            yield from _csv_records(path, encoding)
            return
        text = path.read_bytes().decode(without_bom(encoding))
        if path.suffix == ".json":
            rows = json.loads(text) if text.strip() else []
            if not isinstance(rows, list):
                raise ConfigError(f"--input {path}: expected a list of objects, one per document")
            numbered = [(f"record {i}", row) for i, row in enumerate(rows, 1)]
        else:
            numbered = _jsonl_rows(path, text)
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
    for where, row in numbered:
        if not isinstance(row, dict):
            raise ConfigError(f"--input {path}: {where}: expected an object with a text field")
        yield where, row


def without_bom(encoding: str) -> str:
    """UTF-8 read as `utf-8-sig`: a byte-order mark (Excel writes one) is dropped, not
    kept in the first header, where it would hide an id column (the documents silently
    numbered by position) or a text column (refused under an invisible name)."""
    import codecs

    return "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding


def _parquet_records(path: Path):
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowInvalid) as e:
        raise ConfigError(f"--input {path}: cannot read it ({type(e).__name__})") from None
    for field in table.schema:
        if pa.types.is_binary(field.type) or pa.types.is_large_binary(field.type):
            raise ConfigError(f"--input {path}: column '{field.name}' is bytes, not text")
    names = table.column_names
    for number, values in enumerate(zip(*(table.column(n).to_pylist() for n in names)), 1):
        yield f"row {number}", dict(zip(names, values))


def _jsonl_rows(path: Path, text: str) -> list:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append((f"line {number}", json.loads(line)))
        except json.JSONDecodeError as e:
            raise ConfigError(
                f"--input {path}: line {number} is not JSON ({e.msg} at column {e.colno})"
            ) from None
    return rows


def _csv_records(path: Path, encoding: str):
    """Every field as written, as text: ids keep their leading zeros."""
    import csv

    csv.field_size_limit(1 << 30)  # a document may be long; the default is 128 KiB
    try:
        with path.open(encoding=without_bom(encoding), newline="") as f:
            reader = csv.reader(f)
            header = next(reader, [])
            for row in reader:
                if len(row) != len(header):
                    raise ConfigError(
                        f"--input {path}: line {reader.line_num} has {len(row)} fields where "
                        f"the header has {len(header)}; quote fields that hold a comma"
                    )
                yield f"line {reader.line_num}", dict(zip(header, row))
    except UnicodeDecodeError as e:
        raise ConfigError(_not_encoded(path, encoding, f"byte offset {e.start}")) from None
    except csv.Error as e:
        raise ConfigError(f"--input {path}: not a CSV file ({type(e).__name__})") from None


def _not_encoded(path: Path, encoding: str, where: str) -> str:
    return (
        f"--input {path}: not {encoding} text ({where}); set --encoding to the file's "
        "encoding (e.g. --encoding latin-1) or save it as UTF-8"
    )


def corpus_fingerprint(documents: pa.Table) -> str:
    """A digest of the documents (original ids and texts), for refusing to resume on other
    input."""
    digest = hashlib.sha256()
    for doc_id, text in zip(
        documents.column("original_id").to_pylist(), documents.column("text").to_pylist()
    ):
        digest.update(doc_id.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()
