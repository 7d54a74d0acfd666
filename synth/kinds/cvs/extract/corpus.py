"""Reading a CV corpus (CSV or JSONL with a text and a role per CV) into clean text.

Column names vary between corpora, so a few common ones are accepted (text: `text`,
`resume`, `cv`; role: `label`, `role`, `category`). HTML is turned into plain lines
(block tags become line breaks) and the broken bullet bytes common in scraped CVs
become line breaks too, so line-based patterns see one item per line.
"""

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from synth import ConfigError

TEXT_COLUMNS = ("text", "resume", "cv")
ROLE_COLUMNS = ("label", "role", "category")
BLOCK_TAGS = re.compile(r"<\s*(?:br|/p|/div|/li|/h\d|/tr|li|p|div|h\d)\b[^>]*>", re.IGNORECASE)
ANY_TAG = re.compile(r"<[^>]+>")
BROKEN_BULLET = re.compile(r"\ufffd\??\ufffd?|[•●▪]")


@dataclass(frozen=True)
class CV:
    text: str
    role: str


def clean_text(raw: str) -> str:
    """HTML and broken bullets out, one item per line, no runs of blanks."""
    text = BLOCK_TAGS.sub("\n", raw)
    text = html.unescape(ANY_TAG.sub(" ", text))
    text = BROKEN_BULLET.sub("\n", text)
    text = re.sub(r"[ \t\u00a0]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _pick(columns, wanted: tuple[str, ...], what: str, path) -> str:
    by_lower = {str(c).lower(): c for c in columns}
    for name in wanted:
        if name in by_lower:
            return by_lower[name]
    raise ConfigError(
        f"--corpus {path}: no {what} column (looked for {', '.join(wanted)}); "
        f"found {list(columns)}: rename one"
    )


def read_corpus(path: str | Path, dedupe: bool = True) -> list[CV]:
    """Every CV in the file, cleaned; exact duplicate texts kept once when `dedupe`."""
    path = Path(path)
    try:
        if path.suffix.lower() in (".jsonl", ".json"):
            lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
            frame = pd.DataFrame([json.loads(line) for line in lines if line.strip()])
        else:
            frame = pd.read_csv(path, encoding_errors="replace")
    except FileNotFoundError:
        raise ConfigError(f"--corpus {path}: file not found; check the path") from None
    except (OSError, ValueError, pd.errors.ParserError) as e:
        raise ConfigError(
            f"--corpus {path}: unreadable as CSV or JSONL ({type(e).__name__}: {str(e)[:80]})"
        ) from None
    if frame.empty:
        raise ConfigError(f"--corpus {path}: no CVs in the file")
    text_col = _pick(frame.columns, TEXT_COLUMNS, "text", path)
    role_col = _pick(frame.columns, ROLE_COLUMNS, "role", path)
    if dedupe:
        frame = frame.drop_duplicates(subset=[text_col])
    bad = frame[text_col].isna() | frame[role_col].isna()
    if bad.any():
        rows = [int(i) + 1 for i in frame.index[bad][:10]]
        raise ConfigError(
            f"--corpus {path}: {int(bad.sum())} record(s) without text or role "
            f"(records {rows}); fill or drop them"
        )
    return [
        CV(clean_text(str(t)), str(r).strip()) for t, r in zip(frame[text_col], frame[role_col])
    ]
