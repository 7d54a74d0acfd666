"""Open-ended categorical domains (universities, employers) chosen under DP.

A schema may declare that an attribute's values come from a *vocabulary*: a public
list of candidate names (synth/data/cv/*.yaml or a YAML file of the same shape). Which
candidates enter the domain is decided by `hrsynth fit`, from noisy counts: each
candidate's count of rows naming it gets Laplace noise, and candidates whose noisy
count reaches `min_count` plus `margin` noise scales (default 3) are kept: without the
margin, noise alone would admit about half of the candidates nobody names (P[Lap ≥ 0]),
with it about 2.5 % (½·e^-3) of them. The candidates are public, so this is pure ε-DP
(no δ): a name that is not on the list can never enter the domain, whatever the rows
say. A row names at most k distinct candidates (k = the attributes sharing the
vocabulary), so replacing one row changes the count vector by at most 2k in L1.
`public: true` keeps every candidate and spends nothing.

The candidate lists themselves belong to the document kind that names them (CV
universities and employers: synth.kinds.cvs.vocabulary); the job hands them in as
`candidates_of`, so this layer knows no kind.
"""

from collections.abc import Callable

import numpy as np
import pandas as pd
from diffprivlib.mechanisms import Laplace

from synth import ConfigError
from synth.dp.ledger import Ledger

NONE = "none"


def _spec(name: str, spec: dict, where: str) -> dict:
    if not isinstance(spec, dict) or not spec.get("other"):
        raise ConfigError(
            f"{where}: vocabulary '{name}' needs 'other' (the value rare or unlisted names become)"
        )
    source = spec.get("candidates", name)
    share = spec.get("epsilon_share", 0.0 if spec.get("public") else 0.1)
    if not spec.get("public") and not 0 < share < 1:
        raise ConfigError(f"{where}: vocabulary '{name}': epsilon_share must be in (0, 1)")
    return {
        "candidates": source,
        "other": spec["other"],
        "min_count": spec.get("min_count", 5),
        "margin": spec.get("margin", 3.0),
        "public": bool(spec.get("public")),
        "epsilon_share": share,
    }


def resolve(
    doc: dict,
    table: pd.DataFrame,
    epsilon: float,
    ledger: Ledger,
    rng,
    candidates_of: Callable[[str], list[str]],
    where: str = "schema",
) -> tuple[dict, pd.DataFrame, dict]:
    """Fill every vocabulary attribute's `values`; map the table's other names to `other`.
    `candidates_of(source)`: the public names of a vocabulary's `candidates` (a
    ConfigError for an unknown source).

    Returns the completed schema document, the mapped table and a public note per
    vocabulary (candidates, kept, ε spent)."""
    vocabularies = doc.get("vocabularies") or {}
    attributes = doc.get("attributes") or {}
    doc = {**doc, "attributes": {k: dict(v) for k, v in attributes.items()}}
    doc.pop("vocabularies", None)
    table, notes = table.copy(), {}
    for name, raw in vocabularies.items():
        spec = _spec(name, raw, where)
        members = [a for a, s in attributes.items() if s.get("vocabulary") == name]
        if not members:
            continue
        cols = [attributes[a].get("column", a) for a in members]
        missing = [c for c in cols if c not in table.columns]
        if missing:
            raise ConfigError(f"private table lacks column(s) {missing} declared in the schema")
        try:
            candidates = candidates_of(spec["candidates"])
        except ConfigError as e:
            raise ConfigError(f"{where}: vocabulary '{name}': {e}") from None
        if spec["public"]:
            kept, spent = candidates, 0.0
        else:
            spent = epsilon * spec["epsilon_share"]
            sensitivity = 2.0 * len(cols)
            named = table[cols].astype(str)
            counts = [int(named.eq(c).any(axis=1).sum()) for c in candidates]
            mech = Laplace(epsilon=spent, sensitivity=sensitivity, random_state=rng)
            noisy = np.array([mech.randomise(float(c)) for c in counts])
            threshold = spec["min_count"] - 0.5 + spec["margin"] * sensitivity / spent
            kept = [c for c, v in zip(candidates, noisy) if v >= threshold]
            ledger.spend(
                f"vocabulary '{name}': noisy counts of {len(candidates)} public "
                f"candidates over {cols}",
                spent,
                sensitivity,
                "Laplace",
            )
        domain = [NONE, spec["other"], *kept]
        for a, c in zip(members, cols):
            doc["attributes"][a] = {k: v for k, v in attributes[a].items() if k != "vocabulary"}
            doc["attributes"][a] |= {
                "type": "categorical",
                "values": domain,
                "other": spec["other"],
            }
            table[c] = table[c].astype(str).where(table[c].astype(str).isin(domain), spec["other"])
        notes[name] = {
            "candidates": len(candidates),
            "kept": len(kept),
            "epsilon": spent,
            "min_count": spec["min_count"],
            "margin": spec["margin"],
            "public": spec["public"],
        }
    unresolved = [
        a
        for a, s in attributes.items()
        if s.get("vocabulary") and s["vocabulary"] not in vocabularies
    ]
    if unresolved:
        raise ConfigError(
            f"{where}: attribute(s) {unresolved} name a vocabulary that is not "
            "declared under 'vocabularies'"
        )
    return doc, table, notes
