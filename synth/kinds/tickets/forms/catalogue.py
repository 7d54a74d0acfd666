"""The forms catalogue (synth/data/forms/): each variable's kind, each kind's forms with
their weights and holdout half, the lay phrases; and who writes (Writer)."""

import datetime as dt
from dataclasses import dataclass
from functools import cache
from typing import Literal, get_args

from synth import DATA_DIR, ConfigError

FORMS_DIR = DATA_DIR / "forms"
ValueForms = Literal["canonical", "all", "half_a", "half_b"]  # tickets.value_forms
MODES = get_args(ValueForms)


@dataclass(frozen=True)
class Catalogue:
    kind_of: dict[str, str]  # variable -> kind
    forms: dict[str, dict[str, tuple[float, str]]]  # kind -> form -> (weight, half)
    lay: dict[str, dict[str, list[str]]]  # kind -> listed value -> lay phrases
    supervisors: frozenset[str]
    described: tuple[str, ...]  # whom a complaint is about, described (new information)


@cache
def load_catalogue() -> Catalogue:
    from synth.io.files import read_yaml

    doc = read_yaml(FORMS_DIR / "forms.yaml", "surface forms")
    lay = read_yaml(FORMS_DIR / "lay_phrases.yaml", "lay phrases")
    forms = {
        kind: {name: (float(f["weight"]), f["half"]) for name, f in entries.items()}
        for kind, entries in doc["kinds"].items()
    }
    for kind, entries in forms.items():
        if not entries or any(h not in ("a", "b") or w <= 0 for w, h in entries.values()):
            raise ConfigError(f"forms.yaml: kind '{kind}' needs forms with weight > 0 and half a|b")
    unknown = set(doc["variables"].values()) - set(forms)
    if unknown:
        raise ConfigError(f"forms.yaml: variables use unknown kind(s) {sorted(unknown)}")
    return Catalogue(
        kind_of=dict(doc["variables"]),
        forms=forms,
        lay={k: v for k, v in lay.items() if k != "complaint_target"},
        supervisors=frozenset(lay["complaint_target"]["supervisors"]),
        described=tuple(lay["complaint_target"]["described"]),
    )


def allowed(kind: str, mode: str) -> dict[str, float]:
    """The forms of `kind` a run may use, with their weights."""
    entries = load_catalogue().forms[kind]
    if mode == "canonical":
        first = next(iter(entries))
        return {first: 1.0}
    if mode == "all":
        return {name: w for name, (w, _) in entries.items()}
    half = mode.removeprefix("half_")
    return {name: w for name, (w, h) in entries.items() if h == half}


@dataclass(frozen=True)
class Writer:
    """What a form needs to know about who writes and when."""

    country_code: str
    locale: str
    reference_date: dt.date
