"""Hand-labelled sets written as marked-up text, turned into test-set JSONL.

Writing character offsets by hand is error-prone; writing `[my team lead]{to_who}` is
not. A markup file holds tickets separated by `## LABEL` lines (lines starting with `#`
before the first ticket are comments); `[text]{type}` marks a span, a lowercase type a
taxonomy variable (the record's `entities`), an uppercase one personal data outside the
taxonomy (`personal`). The JSONL is what `--test` and the benchmarks read.

    python -m eval.markup eval/data/dev_people.txt   # writes eval/data/dev_people.jsonl
"""

import json
import re
import sys
from pathlib import Path

from synth import ConfigError
from synth.io.storage import write_text

SPAN = re.compile(r"\[([^\[\]]+)\]\{([A-Za-z_]+)\}")


def parse_ticket(label: str, marked: str) -> dict:
    text, entities, personal, last = "", [], [], 0
    for m in SPAN.finditer(marked):
        text += marked[last : m.start()]
        start = len(text)
        text += m.group(1)
        span = [start, len(text), m.group(2)]
        (personal if m.group(2).isupper() else entities).append(span)
        last = m.end()
    text += marked[last:]
    if "]{" in text:
        raise ConfigError(f"markup: a span in the {label} ticket is not closed: {text[:60]}")
    return {"text": text, "label": label, "entities": entities, "personal": personal}


def mark(text: str, spans: list[tuple[int, int, str]]) -> str:
    """The markup of a text with its spans: the inverse of `parse_ticket` (for showing
    generated tickets as people read them; overlapping spans keep the first)."""
    out, last = [], 0
    for start, end, kind in sorted(spans):
        if start < last:
            continue
        out += [text[last:start], f"[{text[start:end]}]{{{kind}}}"]
        last = end
    return "".join(out) + text[last:]


def parse(path: Path) -> list[dict]:
    records, label, lines = [], None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            if label:
                records.append(parse_ticket(label, "\n".join(lines).strip()))
            label, lines = line[3:].strip(), []
        elif label:
            lines.append(line)
    if label:
        records.append(parse_ticket(label, "\n".join(lines).strip()))
    return records


def jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def main(argv=None) -> int:
    source = Path((argv or sys.argv[1:])[0])
    write_text(str(source.with_suffix(".jsonl")), jsonl(parse(source)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
