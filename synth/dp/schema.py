"""Public schema of a private table: each attribute's type and domain.

Domains are public metadata written by the user, never read from the private rows, so
they cost no privacy budget. Encoding maps each value to its index in the domain;
a value outside it is an error naming the column (or, with on_out_of_domain='clip',
mapped to the nearest bin / the declared 'other' value and counted).
"""

import codecs
from dataclasses import dataclass, field

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
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"{option} {path}: not {encoding} text (byte "
            f"{e.object[e.start : e.start + 1]!r} at offset {e.start}); set "
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


def encode(df: pd.DataFrame, schema: Schema, on_out_of_domain: str = "error"):
    """Private rows -> int codes (n × d) and per-attribute counts of clipped values."""
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
            lookup = {str(v): i for i, v in enumerate(a.values)}
            idx = col.astype(str).map(lookup)
            bad = idx.isna()
            if bad.any() and on_out_of_domain == "clip" and a.other is not None:
                idx[bad] = lookup[str(a.other)]
        else:
            x = pd.to_numeric(col, errors="coerce")
            bad = x.isna() | (x < a.bins[0]) | (x >= a.bins[-1])
            if on_out_of_domain == "clip":
                x = x.clip(a.bins[0], np.nextafter(a.bins[-1], -np.inf))
            idx = pd.Series(np.searchsorted(a.bins, x, side="right") - 1, index=col.index)
            idx[x.isna()] = np.nan
        still_bad = (
            idx.isna()
            if a.type == "categorical"
            else (bad if on_out_of_domain != "clip" else x.isna())
        )
        if still_bad.any():
            raise ConfigError(
                f"column '{a.column}': {int(still_bad.sum())} value(s) outside the declared "
                f"domain of '{a.name}'; widen the schema or pass on_out_of_domain='clip'"
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
