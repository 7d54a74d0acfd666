"""Privacy-leakage checks: does the synthetic output reproduce private rows or values?

Three checks, all reported as aggregates (no private value ever leaves this module):

- Attribute combinations. The DP network's sampled rows (`_dp_samples.parquet`) and the
  private rows are encoded with the same public schema (bins, categories), so both live
  in the space the network was fitted in. Exact match: a sampled row equals some private
  row in every attribute. Near match: it differs in at most one attribute.
- Distance to closest record (DCR), Hamming distance over the encoded attributes, as a
  share of attributes. A model that memorised its training rows sits closer to them than
  to real rows it never saw. So DCR is compared with the held-out split (`hrsynth fit
  --holdout`): the share of sampled rows closer to the fitted rows than to the held-out
  ones, measured against an equally large random subset of the fitted rows so that 0.5
  is what no memorisation gives (ties count one half). The held-out rows' own match rates
  against the fitted rows are the baseline any fresh real record would show.
- Characters reproduced (the in-prompt de-identification paper's privacy score): of the
  distinct text values in the private table's non-numeric columns, the share of their
  characters that occur verbatim (case-insensitive, whole words) in the generated text.
  Values shorter than MIN_VALUE_CHARS are left out: a two-letter code matches anything.
"""

import re

import numpy as np
import pandas as pd

from synth import ConfigError
from synth.dp.holdout import holdout_mask
from synth.dp.schema import Schema, encode

MIN_VALUE_CHARS = 3
CHUNK = 2048  # synthetic rows per distance block: CHUNK × private rows × d int8s


def encoded_samples(samples: pd.DataFrame, schema: Schema) -> np.ndarray:
    """The network's sampled rows (named by attribute) in the schema's code space."""
    missing = [a.name for a in schema.attributes if a.name not in samples.columns]
    if missing:
        raise ConfigError(
            f"--schema: attribute(s) {missing} are not in the DP samples; pass "
            "the schema the model was fitted with"
        )
    renamed = samples[[a.name for a in schema.attributes]].rename(
        columns={a.name: a.column for a in schema.attributes}
    )
    return encode(renamed, schema, on_out_of_domain="clip")[0]


def closest_distances(rows: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """For each row, the smallest Hamming distance to any reference row (attribute count)."""
    if len(reference) == 0:
        return np.full(len(rows), np.inf)
    out = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), CHUNK):
        block = rows[start : start + CHUNK]
        diff = (block[:, None, :] != reference[None, :, :]).sum(axis=2)
        out[start : start + CHUNK] = diff.min(axis=1)
    return out


def match_rates(distances: np.ndarray) -> dict:
    return {
        "exact_match_rate": float(np.mean(distances == 0)),
        "near_match_rate": float(np.mean(distances <= 1)),
    }


def attribute_checks(
    samples: np.ndarray, private: np.ndarray, held_out: np.ndarray, seed: int
) -> dict:
    """Match rates and DCR of sampled rows against the fitted (and held-out) private rows."""
    fitted, holdout = private[~held_out], private[held_out]
    d = private.shape[1]
    to_fitted = closest_distances(samples, fitted)
    result = {
        "sampled_rows": len(samples),
        "private_rows_fitted": len(fitted),
        "attributes": d,
        **match_rates(to_fitted),
        "dcr_mean": float(to_fitted.mean() / d),
    }
    if len(holdout) == 0:
        result["holdout"] = None
        result["holdout_note"] = (
            "the model was fitted on every row; refit with `hrsynth fit "
            "--holdout 0.2` for the DCR comparison"
        )
        return result
    rng = np.random.default_rng(seed)
    subset = fitted[rng.choice(len(fitted), size=min(len(holdout), len(fitted)), replace=False)]
    near_fit, near_hold = closest_distances(samples, subset), closest_distances(samples, holdout)
    holdout_to_fitted = closest_distances(holdout, fitted)
    result["holdout"] = {
        "rows": len(holdout),
        "closer_to_fitted_share": float(
            np.mean(near_fit < near_hold) + 0.5 * np.mean(near_fit == near_hold)
        ),
        "dcr_mean_sampled_to_fitted_subset": float(near_fit.mean() / d),
        "dcr_mean_sampled_to_holdout": float(near_hold.mean() / d),
        "baseline_holdout_to_fitted": {
            **match_rates(holdout_to_fitted),
            "dcr_mean": float(holdout_to_fitted.mean() / d),
        },
    }
    return result


def text_values(table: pd.DataFrame) -> dict[str, set[str]]:
    """Distinct text values per non-numeric column (numbers are not names or addresses)."""
    values = {}
    for column in table.columns:
        col = table[column].dropna().astype(str).str.strip()
        numeric = pd.to_numeric(col, errors="coerce").notna()
        words = {v for v in col[~numeric] if len(v) >= MIN_VALUE_CHARS}
        if words:
            values[column] = words
    return values


def characters_reproduced(values: dict[str, set[str]], texts: list[str]) -> dict:
    """Share of the private text values' characters found verbatim in the generated text."""
    if not values:
        return {"share": None, "note": "the private table has no text columns"}
    corpus = "\n".join(texts).lower()
    per_column, found_all, total_all = {}, 0, 0
    for column, words in values.items():
        found = sum(
            len(w) for w in words if re.search(rf"(?<!\w){re.escape(w.lower())}(?!\w)", corpus)
        )
        total = sum(len(w) for w in words)
        per_column[column] = {"distinct_values": len(words), "share": found / total}
        found_all, total_all = found_all + found, total_all + total
    return {"share": found_all / total_all, "per_column": per_column}


def privacy_checks(
    private: pd.DataFrame,
    schema: Schema,
    samples: pd.DataFrame | None,
    holdout: dict | None,
    texts: list[str],
    seed: int,
) -> dict:
    """All three checks; `holdout` is the model file's record of its held-out split."""
    result = {"characters_reproduced": characters_reproduced(text_values(private), texts)}
    if samples is None or len(samples) == 0:
        result["attributes"] = {
            "note": "no DP samples beside the training data (no label used a DP model)"
        }
        return result
    fraction = (holdout or {}).get("fraction", 0.0)
    held_out = holdout_mask(len(private), fraction, (holdout or {}).get("seed", 0))
    if holdout and int(held_out.sum()) != holdout.get("rows_held_out"):
        raise ConfigError(
            "--private: its row count differs from the table the model was "
            "fitted on; pass the same file given to `hrsynth fit --data`"
        )
    private_codes = encode(private, schema, on_out_of_domain="clip")[0]
    result["attributes"] = attribute_checks(
        encoded_samples(samples, schema), private_codes, held_out, seed
    )
    return result
