"""Private Evolution's private step: every private ticket votes for its nearest synthetic
candidate, and only the noisy vote histogram is released.

Private Evolution (Lin et al., ICLR 2024; for text, Aug-PE: Xie et al., ICML 2024)
never trains on the private data: candidates come from the generator, each private
ticket votes once per round for the candidate whose embedding is closest to its own, and
the histogram of votes is released with Gaussian noise. Winners are kept and varied;
the privacy cost is the T noisy histograms alone.

Sensitivity: under the ledger's relation (replace one ticket) one vote moves from one
candidate to another: L2 sensitivity √2, so the noise per cell is σ = z·√2 for the noise
multiplier z. T rounds are composed with the PRV accountant (Gopi et al., NeurIPS 2021;
`prv-accountant`: its upper bound on ε is what the ledger records), and z is calibrated
so that the T rounds spend at most the ε asked for at the δ asked for.
"""

import math
import secrets

import numpy as np

SENSITIVITY = math.sqrt(2.0)  # replace-one: one vote leaves a cell and joins another
MECHANISM = "Gaussian (numpy normal, seeded from the operating system per call)"


def nearest_votes(private: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """How many private tickets have each candidate as their nearest (cosine on
    L2-normalised embeddings): every private ticket votes exactly once."""
    nearest = (private @ candidates.T).argmax(axis=1)
    return np.bincount(nearest, minlength=len(candidates)).astype(float)


def noisy(votes: np.ndarray, noise_multiplier: float, rng=None) -> np.ndarray:
    """The votes with N(0, (z·√2)²) on every cell. Without `rng` (what the jobs pass)
    the generator is seeded from the operating system: the draws cannot be replayed."""
    rng = rng if rng is not None else np.random.default_rng(secrets.randbits(128))
    return votes + rng.normal(0.0, noise_multiplier * SENSITIVITY, size=len(votes))


def epsilon_spent(noise_multiplier: float, rounds: int, delta: float) -> float:
    """The upper bound on ε of `rounds` Gaussian mechanisms at noise multiplier z, by the
    PRV accountant (error 0.01 in ε)."""
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism

    accountant = PRVAccountant(
        prvs=[GaussianMechanism(noise_multiplier=noise_multiplier)],
        max_self_compositions=[rounds],
        eps_error=0.01,
        delta_error=delta / 1000,
    )
    return float(accountant.compute_epsilon(delta=delta, num_self_compositions=[rounds])[2])


def calibrate(epsilon: float, rounds: int, delta: float) -> float:
    """The smallest noise multiplier (to 0.1 %) whose `rounds` rounds spend at most ε."""
    low, high = 0.05, 1.0
    while epsilon_spent(high, rounds, delta) > epsilon:
        low, high = high, high * 2
    while high - low > high * 1e-3:
        mid = (low + high) / 2
        low, high = (low, mid) if epsilon_spent(mid, rounds, delta) <= epsilon else (mid, high)
    return high


def parents(noisy_votes: np.ndarray, threshold: float, n: int, rng) -> np.ndarray:
    """n candidates to vary, drawn with probability proportional to their noisy votes
    above `threshold` (post-processing). None above it: the largest noisy count's."""
    weights = np.where(noisy_votes > threshold, noisy_votes, 0.0)
    if weights.sum() <= 0:
        return np.full(n, int(noisy_votes.argmax()))
    return rng.choice(len(weights), size=n, p=weights / weights.sum())
