"""Private Evolution's private step: one vote per private ticket, Gaussian noise of scale
z·√2 (replayed, and checked on many cells), and an accountant-calibrated multiplier."""

import numpy as np
import pytest

from synth.style import evolve


def unit(rows):
    v = np.asarray(rows, float)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_every_private_ticket_votes_once_for_its_nearest_candidate():
    candidates = unit([[1, 0], [0, 1], [-1, 0]])
    private = unit([[0.9, 0.1], [0.2, 0.8], [0.1, 0.9], [1, 0.05]])
    assert evolve.nearest_votes(private, candidates).tolist() == [2.0, 2.0, 0.0]


def test_the_noise_is_gaussian_of_scale_z_root_two():
    """Replayed from a seeded generator (the jobs seed from the OS), and its sd over
    20,000 cells within 3 % of z·√2 (the sd's standard error is 0.5 %: a chance failure
    far below 1e-6)."""
    votes = np.zeros(20_000)
    got = evolve.noisy(votes, 3.0, np.random.default_rng(5))
    replay = np.random.default_rng(5).normal(0, 3.0 * np.sqrt(2), size=20_000)
    assert np.array_equal(got, replay)
    assert abs(got.std() / (3.0 * np.sqrt(2)) - 1) < 0.03


def test_the_calibrated_multiplier_spends_at_most_epsilon_and_barely_less():
    z = evolve.calibrate(4.0, rounds=5, delta=1e-5)
    assert evolve.epsilon_spent(z, 5, 1e-5) <= 4.0
    assert evolve.epsilon_spent(z * 0.99, 5, 1e-5) > 4.0 * 0.98
    assert evolve.calibrate(4.0, rounds=10, delta=1e-5) > z  # more rounds, more noise


def test_parents_come_from_candidates_above_the_threshold():
    rng = np.random.default_rng(0)
    picked = evolve.parents(np.array([5.0, 0.5, 20.0, -3.0]), 2.0, 1000, rng)
    assert set(picked) == {0, 2}
    assert np.mean(picked == 2) == pytest.approx(0.8, abs=0.05)
    assert set(evolve.parents(np.array([1.0, 1.5, -1.0]), 2.0, 3, rng)) == {1}
