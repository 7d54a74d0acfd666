"""The documents to de-identify (JSONL, JSON, CSV or Parquet with a text field, an
optional id and label) and the shareable rows that come out (DEID_SCHEMA)."""

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from synth import ConfigError
from synth.io.files import undecodable_at

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
# One replaced value: `start`, `end` where its replacement stands in the shareable text
# (none for a DOCUMENT_ID row), so the original can be put back exactly.
KEY_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("type", pa.string()),
        ("original", pa.string()),
        ("replacement", pa.string()),
        ("start", pa.int32()),
        ("end", pa.int32()),
    ]
)
# One decision of `deidentify --explain` (synth.deid.pipeline.decisions), the whole of
# it: where the words stand in the input, who found them (hrsynth's detector; Presidio's
# recognizer and decision process where Presidio did), the score of the type they ended
# with (none where a rule retyped them), each rule that changed them, and what they
# became (method, replacement, where it stands in the shareable text). Beside the key,
# since `words` are the original's.
EXPLAIN_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("start", pa.int32()),
        ("end", pa.int32()),
        ("words", pa.string()),
        ("type", pa.string()),
        ("detector", pa.string()),
        ("score", pa.float64()),
        ("rules", pa.list_(pa.string())),
        ("outcome", pa.string()),
        ("dropped_by", pa.string()),
        ("recognizer", pa.string()),
        ("decision_process", pa.string()),
        ("method", pa.string()),
        ("replacement", pa.string()),
        ("shared_start", pa.int32()),
        ("shared_end", pa.int32()),
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

    Errors name the file, the line and what is wrong, never the content nor an id (an
    id may be an e-mail address): the input is private, and messages reach consoles and
    logs. The whole input is held; `deidentify` streams it instead (scan_documents,
    document_batches)."""
    fields = {"text": text_field, "id": id_field, "label": label_field}
    rows = list(_documents(source, fields, encoding, variables_field))
    _check_unique(source, id_field, (row["id"] for row in rows))
    table = _table(rows, 0, keep_ids)
    if variables_field is not None:
        variables = [row["variables"] for row in rows]
        table = table.append_column("variables", pa.array(variables, pa.list_(pa.string())))
    return table


@dataclass(frozen=True)
class Scan:
    """What one pass over the input knows before any document is de-identified."""

    documents: int
    fingerprint: str  # a digest of the ids and texts, computed without holding the input
    ids: list[str]  # the shareable id of each document, in order


def scan_documents(
    source: str, fields: dict, encoding: str = "utf-8", keep_ids: bool = False
) -> Scan:
    """Every record checked (as read_documents checks it) in one pass that holds one
    record at a time: the count, the fingerprint and the shareable ids (memory: the ids,
    not the texts)."""
    digest, ids, seen = hashlib.sha256(), [], set()
    for number, row in enumerate(_documents(source, fields, encoding)):
        original = row["id"] if row["id"] is not None else str(number)
        digest.update(original.encode() + b"\0" + row["text"].encode() + b"\0")
        key = hashlib.blake2b(original.encode(), digest_size=8).digest()
        if key in seen:
            raise ConfigError(_repeated(source, fields["id"], row["where"]))
        seen.add(key)
        ids.append(original if keep_ids else str(number))
    return Scan(len(ids), digest.hexdigest(), ids)


def document_batches(
    source: str, fields: dict, encoding: str, keep_ids: bool, rows: int
) -> Iterator[pa.Table]:
    """The documents again, `rows` at a time, as read_documents' tables (id, original_id,
    text, label): the input streamed, never held whole (a .json list excepted: it is one
    value, parsed whole; write JSONL for a large input)."""
    batch, first = [], 0
    for row in _documents(source, fields, encoding):
        batch.append(row)
        if len(batch) == rows:
            yield _table(batch, first, keep_ids)
            first, batch = first + rows, []
    if batch:
        yield _table(batch, first, keep_ids)


def _documents(source: str, fields: dict, encoding: str, variables_field: str | None = None):
    """Each record's checked row (text, id, label, where), one at a time; the first
    problem ends the reading with one line naming the file and line."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in FORMATS)
        if not files:
            raise ConfigError(f"--input {source}: no {'/'.join(FORMATS)} files in the folder")
    elif path.is_file():
        files = [path]
    else:
        raise ConfigError(f"--input {source}: no such file or folder")
    id_given, any_read = None, False  # whether the first record had an id: the others agree
    field_held = False  # whether any record holds variables_field: a mistyped name holds none
    for file in files:
        for where, record in _records(file, encoding):
            row = _checked(record, fields, f"--input {file}: {where}")
            if id_given is None:
                id_given = row["id"] is not None
            elif id_given != (row["id"] is not None):
                raise ConfigError(
                    f"--input {file}: {where}: field '{fields['id']}' is "
                    f"{'missing' if id_given else 'given'} where the first document "
                    f"{'has one' if id_given else 'has none'}; give every document an id, "
                    "or none (positions are used)"
                )
            if len(row["text"]) > MAX_DOCUMENT_CHARS:
                raise ConfigError(
                    f"--input {file}: {where}: the document holds {len(row['text']):,} "
                    f"characters, more than {MAX_DOCUMENT_CHARS:,}; split it into shorter "
                    "documents (a document is read whole)"
                )
            row["where"] = f"{file}: {where}"
            if variables_field is not None:
                row["variables"] = _variables(record, variables_field, f"--input {file}: {where}")
                field_held = field_held or variables_field in record
            any_read = True
            yield row
    if not any_read:
        raise ConfigError(f"--input {source}: no documents in it")
    if variables_field is not None and not field_held:
        raise ConfigError(
            f"--variables-field {variables_field}: no record of --input {source} holds "
            "the field; name the field the records write their variables in"
        )


def _check_unique(source: str, id_field: str, ids) -> None:
    seen = set()
    for row_id in ids:
        if row_id is not None and row_id in seen:
            raise ConfigError(_repeated(source, id_field, None))
        seen.add(row_id)


def _repeated(source: str, id_field: str, where: str | None) -> str:
    at = f" (again at {where})" if where else ""
    return f"--input {source}: field '{id_field}' repeats ids{at}; ids must be unique"


def _table(rows: list[dict], first: int, keep_ids: bool) -> pa.Table:
    """Documents `first`.. as a table: ids given, or positions in the whole input."""
    positions = [str(first + i) for i in range(len(rows))]
    original = [r["id"] if r["id"] is not None else p for r, p in zip(rows, positions)]
    return pa.table(
        {
            "id": original if keep_ids else positions,
            "original_id": original,
            "text": [r["text"] for r in rows],
            "label": [r["label"] for r in rows],
        },
        DOCUMENT_SCHEMA,
    )


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
    """(where, record) for each record of one file, read as it goes (a .json list is one
    value, parsed whole): `where` says line or row, for messages."""
    if path.suffix not in FORMATS:
        raise ConfigError(f"--input {path}: read {', '.join(FORMATS)} files")
    readers = {".parquet": _parquet_records, ".csv": _csv_records, ".jsonl": _jsonl_records}
    try:
        if path.suffix in readers:
            yield from readers[path.suffix](path, encoding)
            return
        text = path.read_bytes().decode(without_bom(encoding))
        rows = json.loads(text) if text.strip() else []
        if not isinstance(rows, list):
            raise ConfigError(f"--input {path}: expected a list of objects, one per document")
        for where, row in ((f"record {i}", row) for i, row in enumerate(rows, 1)):
            yield where, _object(path, where, row)
    except ConfigError:
        raise
    except UnicodeDecodeError:
        raise ConfigError(_not_encoded(path, encoding)) from None
    except json.JSONDecodeError as e:  # its message is fixed text and a position
        raise ConfigError(
            f"--input {path}: cannot read it as JSON ({e.msg}, line {e.lineno} column {e.colno})"
        ) from None
    except (OSError, ValueError, pa.ArrowInvalid) as e:
        raise ConfigError(f"--input {path}: cannot read it ({type(e).__name__})") from None


def _object(path: Path, where: str, row) -> dict:
    if not isinstance(row, dict):
        raise ConfigError(f"--input {path}: {where}: expected an object with a text field")
    return row


def without_bom(encoding: str) -> str:
    """UTF-8 read as `utf-8-sig`: a byte-order mark (Excel writes one) is dropped, not
    kept in the first header, where it would hide an id column (the documents silently
    numbered by position) or a text column (refused under an invisible name)."""
    import codecs

    return "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding


def _parquet_records(path: Path, encoding: str):
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except (OSError, pa.ArrowInvalid) as e:
        raise ConfigError(f"--input {path}: cannot read it ({type(e).__name__})") from None
    for field in parquet.schema_arrow:
        if pa.types.is_binary(field.type) or pa.types.is_large_binary(field.type):
            raise ConfigError(f"--input {path}: column '{field.name}' is bytes, not text")
    number = 0
    for batch in parquet.iter_batches(batch_size=256):
        for record in batch.to_pylist():
            number += 1
            yield f"row {number}", record


def _jsonl_records(path: Path, encoding: str):
    """One line at a time; a line that is not JSON is named by its number."""
    with path.open(encoding=without_bom(encoding), newline="\n") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise ConfigError(
                    f"--input {path}: line {number} is not JSON ({e.msg} at column {e.colno})"
                ) from None
            yield f"line {number}", _object(path, f"line {number}", row)


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
    except UnicodeDecodeError:
        raise ConfigError(_not_encoded(path, encoding)) from None
    except csv.Error as e:
        raise ConfigError(f"--input {path}: not a CSV file ({type(e).__name__})") from None


def _not_encoded(path: Path, encoding: str) -> str:
    """The line and byte where the file stops being `encoding`: the decoder's own offset
    counts from the start of its read buffer, not of the file (issue 84)."""
    line, byte, offset = undecodable_at(path, without_bom(encoding))
    return (
        f"--input {path}: not {encoding} text (line {line}, byte {byte} of the line, "
        f"byte {offset:,} of the file); set --encoding to the file's "
        "encoding (e.g. --encoding latin-1) or save it as UTF-8"
    )
