"""The writing profile's release: Laplace noise of scale 2/share on every cell (replayed
exactly from a seeded generator, and its scale checked on many cells), shares that add up
to ε in the ledger, and a blend that is post-processing of the noisy counts only."""

import math

import numpy as np
import pytest

from synth.dp.privbayes import noisy_counts
from synth.style import release as rel
from synth.style.features import Ticket
from synth.style.prior import load_prior, taxonomy_categories

CATS = taxonomy_categories(labels=False, written=False)
TICKETS = [
    Ticket("Hi,\n\nI need 3 days off from March 3 for surgery.\n\nThanks,\nAnna"),
    Ticket("dear hr i want a 10 percent raise"),
    Ticket("Subject: shift\nCan I swap my shift next Monday? Tom"),
] * 20


def test_the_noise_is_laplace_of_scale_two_over_each_share_replayed_exactly():
    """Seeded here only to replay it: the job draws from the OS (synth/dp/noise.py)."""
    profile = rel.release(TICKETS, CATS, 3.0, load_prior(), np.random.RandomState(11))
    truth = rel.true_counts(TICKETS, CATS)
    replay = np.random.RandomState(11)
    for name, hist in profile["histograms"].items():
        share = profile["epsilon_split"][name]
        noise = noisy_counts(np.zeros(len(truth[name])), share, replay)
        assert np.allclose(hist["noisy_counts"], truth[name] + noise, atol=1e-3), name


def test_the_noise_scale_matches_the_share_on_many_cells():
    """Mean |noise| of Laplace(b) is b; over 4,000 cells its standard error is b/63, so a
    ±10 % band fails by chance with probability below 1e-6."""
    counts = np.zeros(4000)
    share = 0.25
    noise = noisy_counts(counts, share, np.random.RandomState(3))
    b = 2 / share
    assert abs(np.abs(noise).mean() - b) < 0.1 * b


def test_shares_follow_the_square_root_of_cells_and_add_up_to_epsilon():
    profile = rel.release(TICKETS, CATS, 4.0, load_prior(), np.random.RandomState(0))
    split, ledger = profile["epsilon_split"], profile["ledger"]
    assert math.isclose(math.fsum(split.values()), 4.0)
    assert math.isclose(ledger["spent"], 4.0) and len(ledger["entries"]) == len(CATS)
    assert {e["sensitivity"] for e in ledger["entries"]} == {2.0}
    ratio = split["length"] / split["greeting"]
    assert math.isclose(ratio, math.sqrt(len(CATS["length"]) / 2))


def test_without_noise_the_distribution_is_the_tickets_own():
    profile = rel.release(TICKETS, CATS, math.inf, load_prior(), None)
    greeting = dict(zip(CATS["greeting"], profile["histograms"]["greeting"]["distribution"]))
    assert greeting == {"yes": pytest.approx(2 / 3), "no": pytest.approx(1 / 3)}  # hi, dear
    assert profile["private"] is False and profile["ledger"] is None


def test_few_tickets_at_small_epsilon_stay_near_the_prior():
    """Three tickets at ε = 0.5: the prior's weight (thousands of tickets' worth of noise
    mass) dominates, so the released greeting share is within 0.15 of the prior's."""
    prior = load_prior()
    profile = rel.release(TICKETS[:3], CATS, 0.5, prior, np.random.RandomState(1))
    got = profile["histograms"]["greeting"]["distribution"][0]
    assert abs(got - prior["greeting"]["yes"]) < 0.15


def test_the_prior_of_an_unlabelled_length_sums_the_labels():
    table = {"A|<=15": 0.2, "B|<=15": 0.2, "A|<=30": 0.6}
    assert rel.prior_vector(table, ("<=15", "<=30", ">320")).tolist() == [0.4, 0.6, 0.0]
