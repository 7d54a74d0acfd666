"""Private Evolution's loop over ticket plans: which templates a user's staff write like.

Round 0 plans and renders a population of candidate tickets (the writing profile's
settings, so the population already has the user's label mix, traits and forms). Each
round every private ticket votes for its nearest candidate (synth/style/evolve.py: the
only step that reads private data, released with Gaussian noise); the better half of the
population by noisy votes is kept and the other half replaced by variations of parents
drawn in proportion to their noisy votes. A variation is a new plan near its parent:
the same label and template with everything else (values, persona, traits, forms, clause
choices) drawn anew, or, when the planner drew no such plan, the parent's plan written
again from another seed (other words in the `<generate>` slots).

What is released is post-processing of the noisy histograms: the last round's noisy
votes summed per (label, template), a weight per template that `generate` then uses
(tickets.writing_profile), and, for inspection, the last population's texts (synthetic:
written by the generator from public plans, never a private text).
"""

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from synth.style.evolve import SENSITIVITY, nearest_votes, noisy, parents


@dataclass
class Population:
    plans: list  # PlannedDocument
    texts: list[str]
    vectors: np.ndarray  # L2-normalised embeddings, one row per text


@dataclass
class RoundReport:
    """What one round released: its noisy votes over the population it voted on."""

    round: int
    noisy_votes: np.ndarray = field(repr=False)


def key(plan) -> tuple[str, str]:
    return plan.label, plan.template_id


def survivors(noisy_votes: np.ndarray, keep: int) -> np.ndarray:
    """The `keep` candidates with the most noisy votes (post-processing)."""
    return np.argsort(-noisy_votes, kind="stable")[:keep]


def variations(parent_plans: list, reservoir: list, rewrite: Callable) -> list:
    """One new plan per parent: an unused reservoir plan of the parent's label and
    template when there is one, else `rewrite(parent)` (the same plan, written anew)."""
    by_key = defaultdict(list)
    for plan in reservoir:
        by_key[key(plan)].append(plan)
    out = []
    for parent in parent_plans:
        near = by_key.get(key(parent))
        out.append(near.pop() if near else rewrite(parent))
    return out


def template_weights(plans: list, noisy_votes: np.ndarray, floor: float) -> dict:
    """label -> {template id: weight}: the positive noisy votes of each (label, template)
    in the last population plus `floor` for every template that appeared, so one noisy
    round cannot shut a template out. Free-form tickets (no template) are left out."""
    sums: dict = defaultdict(lambda: defaultdict(float))
    for plan, votes in zip(plans, noisy_votes):
        if plan.template_id and not plan.template_id.startswith("free"):
            sums[plan.label][plan.template_id] += max(float(votes), 0.0)
    out = {}
    for label, by_template in sums.items():
        total = sum(by_template.values()) + floor * len(by_template)
        out[label] = {t: round((v + floor) / total, 6) for t, v in sorted(by_template.items())}
    return out


def evolve(
    private: np.ndarray,
    first: Population,
    vary: Callable[[list, int], tuple[list, list[str]]],
    embed: Callable[[list[str]], np.ndarray],
    rounds: int,
    noise_multiplier: float,
    rng: np.random.Generator,
    on_round: Callable[[RoundReport, Population], None] | None = None,
    noise_rng=None,
) -> tuple[Population, np.ndarray]:
    """`rounds` noisy votes over an evolving population; returns the last population and
    its noisy votes. `vary(parent_plans, round)` gives the new plans and their texts;
    `rng` draws parents (post-processing); `noise_rng` None (the jobs) seeds the noise
    from the operating system."""
    population = first
    for t in range(1, rounds + 1):
        votes = noisy(nearest_votes(private, population.vectors), noise_multiplier, noise_rng)
        if on_round:
            on_round(RoundReport(t, votes), population)
        if t == rounds:
            return population, votes
        n = len(population.plans)
        kept = survivors(votes, n - n // 2)
        chosen = parents(votes, noise_multiplier * SENSITIVITY, n // 2, rng)
        plans, texts = vary([population.plans[i] for i in chosen], t)
        population = Population(
            [population.plans[i] for i in kept] + plans,
            [population.texts[i] for i in kept] + texts,
            np.concatenate([population.vectors[kept], embed(texts)]),
        )
    raise ValueError(f"rounds must be ≥ 1, got {rounds}")
