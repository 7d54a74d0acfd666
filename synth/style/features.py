"""What a writing profile counts in one ticket: histograms over public categories.

Every histogram's categories are fixed before a private ticket is read (from
synth/data/style/features.yaml, the taxonomy and the forms catalogue), and every ticket
gives each histogram a total weight of exactly 1: one category, or equal shares among the
forms it wrote. Replacing one ticket therefore moves any histogram by at most 2 in L1
norm, the sensitivity the release (synth/style/release.py) calibrates its noise to.
"""

import re
from dataclasses import dataclass
from functools import cache

from synth import DATA_DIR
from synth.kinds.tickets.forms import load_catalogue
from synth.style.forms_seen import KINDS, forms_used

NONE = "none"
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


@dataclass(frozen=True)
class Ticket:
    """One ticket as the profile reads it: its text, and when known its label and the
    variables it writes (from its spans)."""

    text: str
    label: str | None = None
    variables: frozenset | None = None


@cache
def conventions() -> dict:
    from synth.io.files import read_yaml

    return read_yaml(DATA_DIR / "style" / "features.yaml", "writing profile features")


def _buckets(bounds: list, last: str) -> tuple[str, ...]:
    return tuple(f"<={b}" for b in bounds) + (last,)


def _bucket(value: float, bounds: list) -> str:
    for b in bounds:
        if value <= b:
            return f"<={b}"
    return f">{bounds[-1]}"


def categories(labels: tuple[str, ...] | None, variables: dict | None) -> dict[str, tuple]:
    """{histogram: its categories}, all public. `labels` (the taxonomy's, when the
    tickets carry labels) adds the label mix and makes length per label; `variables`
    ({label: its variables}, when they carry spans too) adds how often each is written."""
    c = conventions()
    lengths = _buckets(c["length_buckets"], f">{c['length_buckets'][-1]}")
    out = {
        "length": tuple(f"{lab}|{b}" for lab in labels for b in lengths) if labels else lengths,
        "greeting": ("yes", "no"),
        "closing": ("none", "sign_off", "sign_off_name", "name_only"),
        "header": ("yes", "no"),
        "paragraphs": _buckets(c["paragraph_buckets"][:-1], f">{c['paragraph_buckets'][-2]}"),
        "register": ("formal", "informal"),
        "lower_case": ("yes", "no"),
        "no_final_punctuation": ("yes", "no"),
        "slips": _buckets(c["slip_buckets"], f">{c['slip_buckets'][-1]}"),
    }
    catalogue = load_catalogue()
    for kind in KINDS:
        out[f"form_{kind}"] = (*catalogue.forms[kind], NONE)
    if labels:
        out["label"] = tuple(labels)
    if labels and variables:
        out["written"] = tuple(
            f"{lab}|{v}|{state}"
            for lab in labels
            for v in variables[lab]
            for state in ("yes", "no")
        )
    return out


def _starts_with(line: str, phrases: list[str]) -> bool:
    return _opening(tuple(phrases)).match(line.lower()) is not None


@cache
def _opening(phrases: tuple[str, ...]) -> re.Pattern:
    """One pattern for 'starts with any of these phrases as whole words', built once."""
    return re.compile("|".join(rf"{re.escape(p)}\b" for p in phrases))


def split_header(lines: list[str]) -> tuple[list[str], list[str]]:
    fields = conventions()["header_fields"]
    n = 0
    while n < len(lines) and re.match(rf"(?:{'|'.join(fields)})\s*:", lines[n].strip().lower()):
        n += 1
    return lines[:n], lines[n:]


def _is_name(line: str) -> bool:
    words = line.strip().rstrip(".,").split()
    return 1 <= len(words) <= 3 and all(w[:1].isupper() and w.isalpha() for w in words)


def greeting(body: list[str]) -> str:
    first = body[0].strip() if body else ""
    own_line_name = first.endswith(",") and _is_name(first[:-1])
    return "yes" if _starts_with(first, conventions()["greetings"]) or own_line_name else "no"


def closing(body: list[str]) -> tuple[str, int]:
    """How the ticket ends (a sign-off phrase with the writer's name after it or not, a
    name alone on its last line, or nothing) and the index of the line where it starts."""
    start = max(len(body) - 3, 0)
    for i in range(start, len(body)):
        line = body[i].strip()
        if len(line.split()) <= 6 and _starts_with(line, conventions()["sign_offs"]):
            rest = line.split(",", 1)[1] if "," in line else ""
            named = any(_is_name(x) for x in body[i + 1 :]) or _is_name(rest)
            return ("sign_off_name" if named else "sign_off"), i
    if len(body) > 1 and _is_name(body[-1]):
        return "name_only", len(body) - 1
    return "none", len(body)


def register(text: str) -> str:
    """Informal when the text has more of the informal markers than of the formal ones."""
    c, low = conventions(), f" {' '.join(text.lower().split())} "
    words = set(WORD.findall(text.lower()))

    def count(markers: list[str]) -> int:
        return sum(m in words if m.replace("'", "").isalpha() else m in low for m in markers)

    return "informal" if count(c["informal_markers"]) > count(c["formal_markers"]) else "formal"


def _fixes(word: str) -> set[str]:
    """Words one slip away, undoing the slips people make (synth/generation/slips.py
    makes the first three): a doubled letter (delete one), a dropped letter (insert one),
    two swapped letters, a wrong letter (replace it)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deleted = {a + b[1:] for a, b in cuts if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    inserted = {a + c + b for a, b in cuts for c in letters}
    replaced = {a + c + b[1:] for a, b in cuts if b for c in letters}
    return deleted | swapped | inserted | replaced


def is_slip(word: str) -> bool:
    """A rare word whose one-slip neighbour is far more common: 'tomorow', not
    'physiotherapy'. wordfreq lists common misspellings, so rarity alone is not enough."""
    from wordfreq import zipf_frequency

    own = zipf_frequency(word, "en")
    if own >= 3.0:
        return False
    best = max(zipf_frequency(w, "en") for w in _fixes(word))
    return best >= max(own + 1.5, 3.0)


def slip_share(text: str) -> float:
    """Share of lower-case words of four letters or more that are slips of a common word
    (names and terms are mostly capitalised, so they are not counted)."""
    words = [w for w in WORD.findall(text) if len(w) >= 4 and w.islower() and "'" not in w]
    if not words:
        return 0.0
    return sum(is_slip(w) for w in words) / len(words)


def _paragraphs(body: list[str]) -> int:
    blocks, current = 0, False
    for line in body:
        if line.strip() and not current:
            blocks += 1
        current = bool(line.strip())
    return max(blocks, 1)


def _forms(text: str) -> dict[str, dict[str, float]]:
    """Per kind, the ticket's weight 1 shared among the forms it wrote (or `none`)."""
    out = {}
    for kind, forms in forms_used(text).items():
        if not forms:
            out[f"form_{kind}"] = {NONE: 1.0}
            continue
        share = {}
        for form in forms:
            share[form] = share.get(form, 0.0) + 1 / len(forms)
        out[f"form_{kind}"] = share
    return out


def votes(ticket: Ticket, cats: dict[str, tuple]) -> dict[str, dict[str, float]]:
    """{histogram: {category: weight}}, weights summing to 1 per histogram."""
    c = conventions()
    lines = ticket.text.strip().splitlines()
    header, rest = split_header(lines)
    body = [line for line in rest if line.strip()] or [""]
    ending, closes_at = closing(body)
    message = "\n".join(body[:closes_at]).strip() or "\n".join(body).strip()
    length = _bucket(len(WORD.findall("\n".join(body))), c["length_buckets"])
    out = {
        "length": {f"{ticket.label}|{length}" if "label" in cats else length: 1.0},
        "greeting": {greeting(body): 1.0},
        "closing": {ending: 1.0},
        "header": {"yes" if header else "no": 1.0},
        "paragraphs": {_bucket(_paragraphs(rest), c["paragraph_buckets"][:-1]): 1.0},
        "register": {register(message): 1.0},
        "lower_case": {"yes" if message == message.lower() else "no": 1.0},
        "no_final_punctuation": {"no" if message[-1:] in ".!?)" else "yes": 1.0},
        "slips": {_bucket(slip_share(message), c["slip_buckets"]): 1.0},
        **_forms(message),
    }
    if "label" in cats:
        out["label"] = {ticket.label: 1.0}
    if "written" in cats and ticket.variables is not None:
        mine = [x for x in cats["written"] if x.startswith(f"{ticket.label}|")]
        names = sorted({x.split("|")[1] for x in mine})  # none: a label that omits nothing
        out["written"] = {
            f"{ticket.label}|{v}|{'yes' if v in ticket.variables else 'no'}": 1 / len(names)
            for v in names
        }
    return out
