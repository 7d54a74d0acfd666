"""Privacy checks against hand-built tables whose answers are known."""

import numpy as np
import pandas as pd
import pytest

from eval.privacy import (
    attribute_checks,
    characters_reproduced,
    closest_distances,
    privacy_checks,
    text_values,
)
from synth import ConfigError
from synth.dp.holdout import holdout_mask
from synth.dp.schema import load_schema
from tests.conftest import ROOT


def test_closest_distances_by_hand():
    rows = np.array([[0, 0, 0], [1, 1, 1], [2, 0, 1], [2, 2, 2]])
    reference = np.array([[0, 0, 1], [1, 1, 1]])
    assert closest_distances(rows, reference).tolist() == [1, 0, 1, 3]


def test_copies_of_fitted_rows_are_caught_and_fresh_rows_are_not():
    fitted = np.array([[i, i, i, 0] for i in range(10)])
    holdout = np.array([[i, i, i, 1] for i in range(10)])  # one attribute from a fitted row
    private = np.vstack([fitted, holdout])
    held = np.array([False] * 10 + [True] * 10)
    copied = attribute_checks(fitted[:6], private, held, seed=0)
    assert copied["exact_match_rate"] == 1.0 and copied["dcr_mean"] == 0.0
    assert copied["holdout"]["closer_to_fitted_share"] == 1.0
    baseline = copied["holdout"]["baseline_holdout_to_fitted"]
    assert baseline["exact_match_rate"] == 0.0 and baseline["near_match_rate"] == 1.0
    fresh = attribute_checks(holdout[:4], private, held, seed=0)
    assert fresh["exact_match_rate"] == 0.0 and fresh["near_match_rate"] == 1.0
    assert fresh["dcr_mean"] == pytest.approx(0.25)
    assert fresh["holdout"]["closer_to_fitted_share"] == 0.0


def test_without_a_holdout_the_dcr_comparison_says_how_to_get_one():
    rows = np.array([[0, 1], [1, 0]])
    result = attribute_checks(rows, rows, np.zeros(2, dtype=bool), seed=0)
    assert result["holdout"] is None and "--holdout" in result["holdout_note"]


def test_characters_reproduced_counts_whole_words_only():
    private = pd.DataFrame({"name": ["Alice Smith", "Bob Jones", "Al"], "age": [31, 45, 50]})
    values = text_values(private)
    assert values == {"name": {"Alice Smith", "Bob Jones"}}  # numbers and 'Al' are left out
    texts = ["Dear HR, alice smith here.", "Bobby Jonesy asked too."]
    result = characters_reproduced(values, texts)
    assert result["share"] == pytest.approx(11 / 20)
    assert result["per_column"]["name"]["distinct_values"] == 2
    assert characters_reproduced({}, texts)["share"] is None


def test_holdout_mask_is_a_function_of_n_share_and_seed():
    a, b = holdout_mask(740, 0.2, 0), holdout_mask(740, 0.2, 0)
    assert a.sum() == 148 and (a == b).all() and not (a == holdout_mask(740, 0.2, 1)).all()
    with pytest.raises(ConfigError, match="--holdout 0.2"):
        holdout_mask(10, 1.5, 0)


def test_a_different_private_file_is_refused():
    schema = load_schema(ROOT / "configs/absenteeism_schema.yaml")
    private = pd.read_csv(ROOT / "data/demo/absenteeism.csv", sep=schema.separator)
    samples = pd.DataFrame(
        {a.name: [a.values[0] if a.values else a.bins[0]] for a in schema.attributes}
    )
    spec = {"fraction": 0.2, "seed": 0, "rows_held_out": 148}
    ok = privacy_checks(private, schema, samples, spec, ["text"], seed=0)
    assert ok["attributes"]["private_rows_fitted"] == 592
    assert ok["characters_reproduced"]["share"] is None  # every column is numeric
    with pytest.raises(ConfigError, match="--private"):
        privacy_checks(private.iloc[:500], schema, samples, spec, ["text"], seed=0)
