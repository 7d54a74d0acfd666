"""Real labelled test sets: read, check, and hold them (docs/evaluation.md, "Test sets").

A test set is a JSON list or JSONL file, one record per document: `text` (or `ticket`),
`label`, `entities` as [start, end, label] triples (character offsets, end exclusive),
and optionally `personal`: personal data that is not a taxonomy variable (a signed name,
an e-mail), as [start, end, TYPE] with TYPE from synth/data/deid/types.yaml (the
de-identification task's gold, with the entities of personal-data types).
Every problem in every record is collected first, then reported together with the
record's position and the reason, so a user fixes the file in one pass.
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from synth import ConfigError

DEV_TICKETS = Path(__file__).parent / "data" / "dev_tickets.jsonl"
MAX_LISTED = 20  # problems shown in the error; the count says how many there are


@dataclass(frozen=True)
class TestDoc:
    text: str
    label: str  # the canonical spelling (labels match case-insensitively)
    entities: tuple[tuple[int, int, str], ...]
    personal: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class TestSet:
    path: str
    sha256: str  # of the file's bytes: metrics name exactly what they were measured on
    docs: tuple[TestDoc, ...]


def _records(path: Path) -> list:
    try:
        raw = path.read_bytes()
    except OSError:
        raise ConfigError(f"--test {path}: cannot read the file; check the path") from None
    text = raw.decode("utf-8", errors="replace").strip()
    if not text:
        raise ConfigError(f"--test {path}: the file is empty; it needs one record per document")
    try:
        doc = json.loads(text)
        return doc if isinstance(doc, list) else [doc]
    except json.JSONDecodeError:
        pass
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ConfigError(
                    f"--test {path}: line {number} is not JSON ({e.msg}); the "
                    "file must be a JSON list or one JSON object per line"
                ) from None
    return records


def _check(record, labels: dict[str, str], entity_labels: set[str] | None) -> list[str]:
    """Reasons this record is unusable (empty when it is fine)."""
    if not isinstance(record, dict):
        return ["not a JSON object"]
    problems = []
    text = record.get("text", record.get("ticket"))
    if not isinstance(text, str) or not text.strip():
        problems.append("no 'text' (or 'ticket') string")
        text = ""
    label = record.get("label")
    if not isinstance(label, str) or not label.strip():
        problems.append("no 'label' string")
    elif labels is not None and label.lower() not in labels:
        problems.append(f"unknown label {label!r}")
    from synth.deid.types import personal_types

    problems += _span_problems(record.get("entities", []), text, entity_labels, "entities")
    problems += _span_problems(
        record.get("personal", []), text, set(personal_types().names), "personal"
    )
    return problems


def _span_problems(spans, text: str, names: set[str] | None, field: str) -> list[str]:
    """Why a record's `field` ([start, end, label] spans) is unusable."""
    if not isinstance(spans, list):
        return [f"'{field}' must be a list of [start, end, label]"]
    problems, previous_end, previous = [], -1, None
    kind = "entity" if field == "entities" else f"{field} span"
    for span in sorted(spans, key=lambda s: s[0] if _is_span(s) else -1):
        if not _is_span(span):
            problems.append(f"{kind} {span!r} is not [start, end, label]")
            continue
        start, end, name = span
        if not 0 <= start < end <= len(text):
            problems.append(f"{kind} {span!r} has offsets outside the text (length {len(text)})")
        elif start < previous_end:
            problems.append(f"{kind} {span!r} overlaps {previous!r}")
        if names is not None and name not in names:
            problems.append(
                f"{kind} {span!r} has an unknown {'entity label' if field == 'entities' else 'type'}"
            )
        previous_end, previous = max(previous_end, end), span
    return problems


def _is_span(span) -> bool:
    return (
        isinstance(span, (list, tuple))
        and len(span) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in span[:2])
        and isinstance(span[2], str)
    )


def load_testset(
    path: str | Path, labels: list[str] | None, entity_labels: set[str] | None = None
) -> TestSet:
    """Read and check a test set; any bad record stops with a list of all of them.

    labels None: any label is accepted (CV roles), spelled as first seen."""
    path = Path(path)
    records = _records(path)
    if not records:
        raise ConfigError(f"--test {path}: no records in it; give a labelled test set")
    allowed = None if labels is None else {label.lower(): label for label in labels}
    problems = [
        f"record {i}: {reason}"
        for i, r in enumerate(records)
        for reason in _check(r, allowed, entity_labels)
    ]
    canonical = dict(allowed or {})
    for r in records:
        if labels is None and isinstance(r, dict) and isinstance(r.get("label"), str):
            canonical.setdefault(r["label"].lower(), r["label"])
    if problems:
        shown = "; ".join(problems[:MAX_LISTED])
        more = f" (and {len(problems) - MAX_LISTED} more)" if len(problems) > MAX_LISTED else ""
        raise ConfigError(
            f"--test {path}: {len(problems)} problem(s): {shown}{more}; "
            "fix those records (format: docs/evaluation.md, 'Test sets')"
        )
    docs = tuple(
        TestDoc(
            text=r.get("text", r.get("ticket")),
            label=canonical[r["label"].lower()],
            entities=tuple(sorted(tuple(s) for s in r.get("entities", []))),
            personal=tuple(sorted(tuple(s) for s in r.get("personal", []))),
        )
        for r in records
    )
    return TestSet(str(path), hashlib.sha256(path.read_bytes()).hexdigest(), docs)
