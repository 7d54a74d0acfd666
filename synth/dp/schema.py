"""Public schema of a private table: each attribute's type and domain.

Domains are public metadata written by the user, never read from the private rows, so
they cost no privacy budget. Encoding maps each value to its index in the domain;
a value outside it is an error naming the column (or, with on_out_of_domain='clip',
mapped to the nearest bin / the declared 'other' value and counted). A numeric attribute
may declare `out_of_range: clip`: a public rule, written in the schema before any data is
seen, that maps values beyond its outer bin edges into the first / last bin, so one odd
value (a CV stating 67 years of experience) neither stops a run nor asks for a new bin.
A categorical value that differs from a declared one only in case ('ADVOCATE' for
'Advocate') is that value.
"""

import codecs
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from synth import ConfigError
from synth.io.files import read_yaml


@dataclass
class Attribute:
    name: str
    column: str
    type: str  # "categorical" or "numeric"
    values: list = field(default_factory=list)  # categorical domain
    bins: list = field(default_factory=list)  # numeric bin edges, closed left
    other: object = None  # categorical value that out-of-domain values map to
    out_of_range: str = "error"  # numeric: "clip" maps values past the outer edges inside

    @property
    def size(self) -> int:
        return len(self.values) if self.type == "categorical" else len(self.bins) - 1


@dataclass
class Schema:
    attributes: list[Attribute]
    separator: str = ","
    encoding: str = "utf-8"  # the private table's text encoding (e.g. latin-1)

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.attributes]

    def to_dict(self) -> dict:
        return {
            "separator": self.separator,
            "encoding": self.encoding,
            "attributes": {
                a.name: {
                    "column": a.column,
                    "type": a.type,
                    "values": a.values,
                    "bins": a.bins,
                    "other": a.other,
                }
                | ({"out_of_range": a.out_of_range} if a.out_of_range != "error" else {})
                for a in self.attributes
            },
        }


def schema_from_dict(doc: dict, where: str = "schema") -> Schema:
    if not isinstance(doc, dict) or not isinstance(doc.get("attributes"), dict):
        raise ConfigError(f"{where}: expected a mapping with 'attributes'; see configs/")
    attributes = []
    for name, spec in doc["attributes"].items():
        kind = spec.get("type")
        a = Attribute(
            name=name,
            column=spec.get("column", name),
            type=kind,
            values=list(spec.get("values") or []),
            bins=list(spec.get("bins") or []),
            other=spec.get("other"),
            out_of_range=spec.get("out_of_range", "error"),
        )
        if a.out_of_range not in ("error", "clip") or (
            a.out_of_range == "clip" and kind != "numeric"
        ):
            raise ConfigError(
                f"{where}: attribute '{name}' has out_of_range {a.out_of_range!r}; it "
                "applies to numeric attributes only, as 'clip' or 'error'"
            )
        if kind == "categorical" and len(a.values) < 1:
            raise ConfigError(f"{where}: attribute '{name}' needs a non-empty 'values' list")
        elif kind == "numeric" and (len(a.bins) < 2 or sorted(a.bins) != a.bins):
            raise ConfigError(f"{where}: attribute '{name}' needs increasing 'bins' (≥ 2 edges)")
        elif kind not in ("categorical", "numeric"):
            raise ConfigError(
                f"{where}: attribute '{name}' has type {kind!r}; use 'categorical' or 'numeric'"
            )
        attributes.append(a)
    if not attributes:
        raise ConfigError(f"{where}: no attributes declared")
    return Schema(attributes, doc.get("separator", ","), _encoding(doc, where))


def load_schema(path) -> Schema:
    return schema_from_dict(read_yaml(path, "schema"), f"schema {path}")


def read_private_table(path, doc: dict, option: str) -> pd.DataFrame:
    """The private table as its schema document declares it: separator, encoding, and
    categorical columns read as text, so an empty cell stays missing instead of turning a
    column of codes into floats. `doc` may still hold unresolved vocabularies; `option`
    names the CLI flag in errors."""
    encoding = _encoding(doc, f"schema for {option}")
    text_columns = {
        spec.get("column", name): str
        for name, spec in (doc.get("attributes") or {}).items()
        if isinstance(spec, dict) and spec.get("type") == "categorical"
    }
    try:
        return pd.read_csv(
            path, sep=doc.get("separator", ","), encoding=encoding, dtype=text_columns
        )
    except UnicodeDecodeError:
        from synth.io.files import undecodable_at

        line, byte, offset = undecodable_at(Path(path), encoding)
        raise ConfigError(
            f"{option} {path}: not {encoding} text (line {line}, byte {byte} of the line, "
            f"byte {offset:,} of the file); set "
            "'encoding:' in the schema (e.g. latin-1) or save the file as "
            "UTF-8"
        ) from None
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise ConfigError(
            f"{option} {path}: unreadable ({type(e).__name__}); check the path"
        ) from None


def _encoding(doc: dict, where: str) -> str:
    encoding = doc.get("encoding", "utf-8")
    try:
        codecs.lookup(encoding)
    except (LookupError, TypeError):
        raise ConfigError(
            f"{where}: unknown encoding {encoding!r}; use a Python codec name "
            "such as utf-8 or latin-1"
        ) from None
    return encoding


def _categorical_codes(col: pd.Series, a: Attribute) -> pd.Series:
    """Index of each value in the domain; a value that matches one declared value when
    case is ignored takes it; anything else is missing."""
    lookup = {str(v): i for i, v in enumerate(a.values)}
    folded: dict[str, int | None] = {}
    for v, i in lookup.items():
        folded[v.casefold()] = None if v.casefold() in folded else i  # None: ambiguous
    text = col.astype(str)
    return text.map(lambda v: lookup.get(v, folded.get(v.casefold())))


def encode(df: pd.DataFrame, schema: Schema, on_out_of_domain: str = "error"):
    """Private rows -> int codes (n × d) and per-attribute counts of clipped values.

    Errors name the fix by the option of `hrsynth fit` and `hrsynth cv-experiment`
    (--on-out-of-domain), the only commands that let one choose."""
    if len(df) == 0:
        raise ConfigError("the private table has no rows; nothing to fit")
    missing = [a.column for a in schema.attributes if a.column not in df.columns]
    if missing:
        raise ConfigError(
            f"private table lacks column(s) {missing} declared in the schema; "
            "fix 'column' in the schema or the table header"
        )
    empty = {a.column: int(df[a.column].isna().sum()) for a in schema.attributes}
    empty = {column: n for column, n in empty.items() if n}
    if empty:
        raise ConfigError(
            f"empty cells (of {len(df)} rows) in column(s) "
            f"{', '.join(f'{c!r}: {n}' for c, n in empty.items())}; fill them "
            "or drop those rows: a missing value is not in any domain"
        )
    codes = np.empty((len(df), len(schema.attributes)), dtype=np.int64)
    clipped = {}
    for j, a in enumerate(schema.attributes):
        col = df[a.column]
        if a.type == "categorical":
            idx = _categorical_codes(col, a)
            bad = idx.isna()
            if bad.any() and on_out_of_domain == "clip" and a.other is not None:
                idx[bad] = [str(v) for v in a.values].index(str(a.other))
            still_bad = idx.isna()
            fix = (
                "add the value(s) to its 'values' in the schema"
                if a.other is None
                else f"add them to its 'values', or pass --on-out-of-domain clip to map them to {a.other!r}"
            )
        else:
            x = pd.to_numeric(col, errors="coerce")
            bad = x.isna() | (x < a.bins[0]) | (x >= a.bins[-1])
            clip = on_out_of_domain == "clip" or a.out_of_range == "clip"
            if clip:
                x = x.clip(a.bins[0], np.nextafter(a.bins[-1], -np.inf))
            idx = pd.Series(np.searchsorted(a.bins, x, side="right") - 1, index=col.index)
            idx[x.isna()] = np.nan
            still_bad = x.isna() if clip else bad
            fix = (
                "non-numbers cannot be clipped: fix or drop those rows"
                if clip
                else f"declare 'out_of_range: clip' on it in the schema (values beyond "
                f"[{a.bins[0]}, {a.bins[-1]}) go to the outer bins), or pass "
                "--on-out-of-domain clip"
            )
        if still_bad.any():
            raise ConfigError(
                f"column '{a.column}': {int(still_bad.sum())} value(s) outside the declared "
                f"domain of '{a.name}'; {fix}"
            )
        clipped[a.name] = int(bad.sum())
        codes[:, j] = idx.to_numpy(dtype=np.int64)
    return codes, clipped


def decode(codes: np.ndarray, schema: Schema, rng: np.random.Generator) -> pd.DataFrame:
    """Codes -> values; a numeric bin becomes a uniform integer within the bin."""
    out = {}
    for j, a in enumerate(schema.attributes):
        c = codes[:, j]
        if a.type == "categorical":
            out[a.name] = np.asarray(a.values, dtype=object)[c]
        else:
            lo, hi = np.asarray(a.bins)[c], np.asarray(a.bins)[c + 1]
            out[a.name] = np.floor(lo + rng.random(len(c)) * (hi - lo)).astype(int)
    return pd.DataFrame(out)
