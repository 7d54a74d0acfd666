"""DP vocabulary selection: public candidates, noisy counts, one ledger for all ε."""

import numpy as np
import pandas as pd
import pytest

from synth import ConfigError
from synth.dp.ledger import Ledger
from synth.dp.vocab import resolve
from synth.kinds.cvs.vocabulary import candidates

DOC = {
    "vocabularies": {
        "u": {
            "candidates": "universities",
            "other": "Other University",
            "min_count": 5,
            "epsilon_share": 0.1,
        }
    },
    "attributes": {
        "role": {"type": "categorical", "values": ["a", "b"]},
        "uni_1": {"vocabulary": "u"},
        "uni_2": {"vocabulary": "u"},
    },
}


def table(n=200):
    names = ["University of Pune"] * 150 + ["Fergusson College"] * 50
    return pd.DataFrame({"role": ["a"] * n, "uni_1": names[:n], "uni_2": ["none"] * n})


def test_frequent_public_names_are_kept_and_the_spend_is_ledgered():
    ledger = Ledger(1000.0)
    doc, mapped, notes = resolve(DOC, table(), 1000.0, ledger, np.random.RandomState(0), candidates)
    values = doc["attributes"]["uni_1"]["values"]
    assert values[:2] == ["none", "Other University"] and "University of Pune" in values
    assert "vocabularies" not in doc and doc["attributes"]["uni_2"]["values"] == values
    # Not on the public list: never enters the domain, whatever its count.
    assert "Fergusson College" not in values
    assert set(mapped["uni_1"]) == {"University of Pune", "Other University"}
    assert ledger.spent == pytest.approx(100.0) and ledger.entries[0]["sensitivity"] == 4.0
    assert notes["u"]["kept"] == len(values) - 2


def test_at_small_epsilon_the_margin_keeps_noise_out():
    kept = []
    for seed in range(5):
        doc, _, _ = resolve(DOC, table(), 1.0, Ledger(1.0), np.random.RandomState(seed), candidates)
        kept.append(len(doc["attributes"]["uni_1"]["values"]) - 2)
    # ~90 candidates named by nobody: without the margin about half would pass.
    assert np.mean(kept) < 10


def test_public_vocabulary_spends_nothing():
    doc = {
        **DOC,
        "vocabularies": {"u": {"candidates": "universities", "other": "Other", "public": True}},
    }
    ledger = Ledger(1.0)
    _out, _, notes = resolve(doc, table(), 1.0, ledger, np.random.RandomState(0), candidates)
    assert ledger.spent == 0 and notes["u"]["kept"] > 50


def test_undeclared_vocabulary_is_named():
    doc = {"attributes": {"uni_1": {"vocabulary": "nope"}}}
    with pytest.raises(ConfigError, match="not declared"):
        resolve(doc, table(), 1.0, Ledger(1.0), np.random.RandomState(0), candidates)


def test_an_unknown_candidate_list_is_named():
    doc = {**DOC, "vocabularies": {"u": {"candidates": "nope", "other": "Other"}}}
    with pytest.raises(ConfigError, match="schema: vocabulary 'u': candidates 'nope' is neither"):
        resolve(doc, table(), 1.0, Ledger(1.0), np.random.RandomState(0), candidates)
