"""A writing profile released under ε-differential privacy.

Each histogram of synth/style/features.py gets its share of ε and Laplace noise of scale
2/share on every cell (replace-one: a changed ticket moves its weight 1 from some
categories to others, at most 2 in L1), from diffprivlib's mechanism with the operating
system's generator (synth/dp/noise.py). Sequential composition over the histograms: the
shares add up to ε, one ledger entry each. The number of tickets is public under the
ledger's neighbouring relation and is written as is.

Shares grow with the square root of a histogram's cells: with n tickets the expected
total variation error of a histogram is about cells × scale / 2n, and that split
minimises its sum over histograms. What leaves the job is the noisy counts and the
distributions blended from them (post-processing, no further ε): the distribution of
the noisy counts clipped at 0, mixed with the shipped default distribution as n tickets
against `prior_strength` × cells × scale, the expected noise mass of the histogram
(E|Laplace(b)| = b per cell). A profile from few tickets or a small ε therefore stays
near today's defaults instead of going wild.
"""

import math

import numpy as np

from synth.dp.ledger import Ledger
from synth.dp.privbayes import COUNT_SENSITIVITY, noisy_counts
from synth.kinds.tickets.writing_profile import FORMAT
from synth.style.features import Ticket, votes


def split(epsilon: float, cats: dict[str, tuple]) -> dict[str, float]:
    """Each histogram's share of ε, in proportion to the square root of its cells."""
    roots = {name: math.sqrt(len(c)) for name, c in cats.items()}
    total = math.fsum(roots.values()) * (1 + 1e-12)  # rounding must never overspend
    return {name: epsilon * r / total for name, r in roots.items()}


def true_counts(tickets: list[Ticket], cats: dict[str, tuple]) -> dict[str, np.ndarray]:
    """The unnoised histograms: never written, never printed, only noised."""
    index = {name: {c: i for i, c in enumerate(cs)} for name, cs in cats.items()}
    counts = {name: np.zeros(len(cs)) for name, cs in cats.items()}
    for ticket in tickets:
        for name, share in votes(ticket, cats).items():
            for category, weight in share.items():
                counts[name][index[name][category]] += weight
    return counts


def prior_vector(table: dict[str, float], categories: tuple) -> np.ndarray:
    """The prior over `categories`: a length without labels is the prior's length per
    label summed over labels; a histogram the prior lacks is uniform."""
    p = np.array(
        [
            table.get(c, math.fsum(v for k, v in table.items() if k.endswith(f"|{c}")))
            for c in categories
        ]
    )
    return p / p.sum() if p.sum() > 0 else np.full(len(p), 1 / len(p))


def blend(noisy: np.ndarray, prior: np.ndarray, n: int, weight: float) -> np.ndarray:
    """The noisy counts' distribution (clipped at 0) and the prior, mixed as n tickets
    against `weight` tickets: n is public, so this is post-processing."""
    data = noisy.clip(min=0)
    if data.sum() <= 0 or n == 0:
        return prior
    trust = n / (n + weight)
    return trust * data / data.sum() + (1 - trust) * prior


def release(
    tickets: list[Ticket],
    cats: dict[str, tuple],
    epsilon: float,
    prior: dict[str, dict[str, float]],
    rng,
    prior_strength: float = 1.0,
) -> dict:
    """The profile: per histogram its categories, noisy counts and blended distribution,
    with the ledger. `epsilon = math.inf` releases the exact histograms (no privacy: for
    benchmarks on public data only), recorded as such."""
    private = math.isfinite(epsilon)
    ledger = Ledger(float(epsilon)) if private else None
    shares = split(epsilon, cats) if private else {name: math.inf for name in cats}
    histograms = {}
    for name, counts in true_counts(tickets, cats).items():
        p = prior_vector(prior.get(name, {}), cats[name])
        if private:
            noisy = noisy_counts(counts, shares[name], rng)
            ledger.spend(
                f"writing profile: {name} ({len(counts)} cells)",
                shares[name],
                COUNT_SENSITIVITY,
                "Laplace",
            )
            weight = prior_strength * len(counts) * COUNT_SENSITIVITY / shares[name]
        else:
            noisy, weight = counts, 0.0
        histograms[name] = {
            "categories": list(cats[name]),
            "noisy_counts": [round(float(x), 3) for x in noisy],
            "prior": [round(float(x), 6) for x in p],
            "prior_weight": round(weight, 3),
            "distribution": [round(float(x), 6) for x in blend(noisy, p, len(tickets), weight)],
        }
    return {
        "format": FORMAT,
        "epsilon": epsilon if private else None,
        "private": private,
        "tickets": len(tickets),
        "epsilon_split": shares if private else None,
        "ledger": ledger.to_dict() if private else None,
        "prior_strength": prior_strength,
        "histograms": histograms,
    }
