"""The card's writing-profile line: what the profile learnt from, at what ε, and, for an
evolved profile, Private Evolution's rounds at their (ε, δ)."""

import pytest

from synth.dp.ledger import Ledger
from synth.kinds.card import _ledgers


def manifest(evolution: dict | None) -> dict:
    ledger = Ledger(6.0)
    ledger.spend("writing profile: greeting (2 cells)", 1.5, 1.0, "Laplace")
    ledger.spend("writing profile: label (8 cells)", 2.5, 1.0, "Laplace")
    if evolution:
        ledger.spend("Private Evolution: 3 rounds", 1.9, 2**0.5, "Gaussian", delta=1e-5)
    about = {"file": "out/evolved.json", "private": True, "tickets": 751, "epsilon": 6.0}
    about |= {"ledger": ledger.to_dict()} | ({"evolution": evolution} if evolution else {})
    return {"writing_profile": about}


def test_a_profile_line_names_its_tickets_and_epsilon():
    (line,) = _ledgers(manifest(None))
    assert "learnt from 751 private tickets, ε 4 of a budget of 6" in line
    assert "Laplace noise on 2 histograms" in line and "Private Evolution" not in line


def test_an_evolved_profile_line_adds_the_rounds_at_their_epsilon_and_delta():
    (line,) = _ledgers(manifest({"rounds": 3, "epsilon": 1.9, "delta": 1e-5}))
    assert "ε 5.9 of a budget of 6" in line and "Laplace noise on 2 histograms" in line
    assert "Private Evolution: 3 rounds" in line and "ε 1.9 at δ 1e-05" in line
    assert "templates" in line


def test_the_ledger_adds_deltas_and_keeps_them_out_of_pure_entries():
    ledger = Ledger(3.0)
    ledger.spend("a", 1.0, 1.0, "Laplace")
    ledger.spend("b", 1.0, 1.4, "Gaussian", delta=1e-6)
    ledger.spend("c", 0.5, 1.4, "Gaussian", delta=2e-6)
    doc = ledger.to_dict()
    assert doc["delta"] == pytest.approx(3e-6) and "delta" not in doc["entries"][0]
    assert "delta" not in Ledger(1.0).to_dict()
    with pytest.raises(RuntimeError, match="budget exceeded"):
        ledger.spend("d", 0.6, 1.0, "Laplace")
