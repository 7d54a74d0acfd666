"""A personal-data audit of generated text: what a detector finds that hrsynth did not plant.

A language model can write memorised e-mail addresses, phone numbers, IBANs or real
names. Every value hrsynth planted is known (the row's entity spans, every occurrence of
a persona field), so anything of an audited type that Presidio finds outside them came
from the model. The policy says what happens to such a row:

- `flag`: kept as written; the findings are counted (manifest, card);
- `redact`: each finding becomes its type's tag ([EMAIL]); entity offsets move with it;
- `drop`: the row is kept for the shard's row count (resume needs it) with its text
  emptied and `error` saying why, so no reader trains on it.

Only counts and row ids leave the actor; never the strings found.
"""

import functools
import re
from dataclasses import dataclass

from synth import DATA_DIR, ConfigError
from synth.deid.spans import Span, resolve
from synth.deid.types import personal_types

POLICIES = ("off", "flag", "redact", "drop")
# Types a ticket or CV never carries except through the persona or a planted variable.
DEFAULT_TYPES = ("PERSON", "EMAIL", "PHONE", "URL", "ID")
DROPPED = "generated text holds personal data hrsynth did not plant"
MIN_VALUE = 2  # persona values shorter than this ("US") are not searched for
EXCLUSIONS_FILE = DATA_DIR / "deid" / "audit.yaml"


# The fictional colleagues hrsynth's own clauses name ("Thanks to Giulia in facilities"):
# hrsynth wrote them, so they are no finding. Counted as findings once the audit read the
# text with the analyze step (issue 95): 7 of 1,024 tickets' rows, which `redact` and
# `drop` would have changed.
STAFF_FILE = DATA_DIR / "clauses" / "grammar" / "aside.yaml"


@functools.cache
def not_person() -> frozenset[str]:
    from synth.io.files import read_yaml

    doc = read_yaml(EXCLUSIONS_FILE, "audit exclusions")
    staff = read_yaml(STAFF_FILE, "clause grammar").get("staff", [])
    names = {name.lower() for name in staff} | {name.split()[-1].lower() for name in staff}
    return frozenset(w.lower() for w in doc.get("not_person", [])) | names


def is_noise(span: Span, text: str) -> bool:
    """A finding that is not personal data: a salutation word taken for a name, or an
    ellipsis run into a word taken for a URL."""
    found = text[span.start : span.end]
    if span.type == "PERSON":
        return found.lower() in not_person()
    return span.type == "URL" and ".." in found


@dataclass
class AuditSettings:
    """The config's `pii_audit:` block."""

    policy: str = "flag"
    types: tuple[str, ...] = DEFAULT_TYPES

    def __post_init__(self):
        self.types = tuple(self.types)
        if self.policy not in POLICIES:
            raise ConfigError(
                f"pii_audit.policy '{self.policy}' unknown; use one of {', '.join(POLICIES)}"
            )
        unknown = sorted(set(self.types) - set(personal_types().names))
        if unknown or not self.types:
            raise ConfigError(
                f"pii_audit.types: unknown or empty {unknown or list(self.types)}; choose "
                f"from {', '.join(personal_types().names)}"
            )


def planted(text: str, entities: list[dict], persona: dict | None) -> list[tuple[int, int]]:
    """Character ranges of what hrsynth put in the text: entity spans and every whole-word
    occurrence of a persona value."""
    ranges = [(e["start"], e["end"]) for e in entities]
    for value in (persona or {}).values():
        if isinstance(value, str) and len(value) >= MIN_VALUE:
            pattern = rf"(?<!\w){re.escape(value)}(?!\w)"
            ranges += [(m.start(), m.end()) for m in re.finditer(pattern, text)]
    return ranges


def unplanted(text: str, found: list[Span], ranges: list[tuple[int, int]], types) -> list[Span]:
    """Found spans of the audited types that touch nothing planted and are not noise."""
    return [
        s
        for s in resolve(found)
        if s.type in types
        and not any(s.start < end and start < s.end for start, end in ranges)
        and not is_noise(s, text)
    ]


def audit_rows(rows: list[dict], found, settings: AuditSettings) -> tuple[list[dict], dict]:
    """The rows after the policy, and the counts: rows with findings, findings per type,
    the ids of the rows (at most 20). `found`: the spans the analyzer found in each row's
    text (synth.shard_writer.Audit)."""
    counts = {"rows_with_findings": 0, "findings_per_type": {}, "row_ids": []}
    if settings.policy == "off" or not rows:
        return rows, counts
    out = []
    for row, spans in zip(rows, found):
        ranges = planted(row["text"], row["entities"], row.get("persona"))
        leaks = unplanted(row["text"], spans, ranges, settings.types)
        if leaks:
            counts["rows_with_findings"] += 1
            for s in leaks:
                counts["findings_per_type"][s.type] = counts["findings_per_type"].get(s.type, 0) + 1
            if len(counts["row_ids"]) < 20:
                counts["row_ids"].append(row["id"])
            row = apply_policy(row, leaks, settings.policy)
        out.append(row)
    return out, counts


def apply_policy(row: dict, leaks: list[Span], policy: str) -> dict:
    if policy == "flag":
        return row
    if policy == "drop":
        types = ", ".join(sorted({s.type for s in leaks}))
        error = f"{DROPPED} ({types})"
        return {
            **row,
            "text": "",
            "entities": [],
            "error": "; ".join(filter(None, [row.get("error"), error])),
        }
    return redacted(row, leaks)


def redacted(row: dict, leaks: list[Span]) -> dict:
    """Each leak replaced by its tag; every entity after it moved by the length change, so
    `text[start:end]` stays exact (leaks never overlap an entity)."""
    types = personal_types()
    text, entities = row["text"], [dict(e) for e in row["entities"]]
    for leak in sorted(leaks, reverse=True):  # from the end: earlier offsets stay valid
        tag = types.tag(leak.type)
        text = text[: leak.start] + tag + text[leak.end :]
        shift = len(tag) - (leak.end - leak.start)
        for e in entities:
            if e["start"] >= leak.end:
                e["start"] += shift
                e["end"] += shift
    return {**row, "text": text, "entities": entities}


def merge_counts(counts: list[dict]) -> dict:
    """Shard counts summed into the run's."""
    total = {"rows_with_findings": 0, "findings_per_type": {}, "row_ids": []}
    for c in counts:
        total["rows_with_findings"] += c.get("rows_with_findings", 0)
        for t, n in c.get("findings_per_type", {}).items():
            total["findings_per_type"][t] = total["findings_per_type"].get(t, 0) + n
        total["row_ids"] = (total["row_ids"] + c.get("row_ids", []))[:20]
    total["findings_per_type"] = dict(sorted(total["findings_per_type"].items()))
    return total
