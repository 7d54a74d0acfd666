"""Private Evolution's loop (synth/style/evolution.py) on plans whose embeddings we choose:
the noise each round releases is replayed exactly, the better half survives, parents'
variations keep their label and template, and the template weights follow the votes."""

from dataclasses import dataclass

import numpy as np

from synth.style import evolution
from synth.style.evolve import SENSITIVITY, nearest_votes

NORTH, EAST = np.array([1.0, 0.0]), np.array([0.0, 1.0])


@dataclass(frozen=True)
class Plan:
    label: str
    template_id: str
    n: int = 0


def direction(plan: Plan) -> np.ndarray:
    return NORTH if plan.template_id == "north" else EAST


def population(plans) -> evolution.Population:
    return evolution.Population(
        list(plans), [p.template_id for p in plans], np.array([direction(p) for p in plans])
    )


def test_survivors_are_the_most_voted_in_order():
    assert evolution.survivors(np.array([1.0, 5.0, -2.0, 5.0, 3.0]), 3).tolist() == [1, 3, 4]


def test_a_variation_shares_its_parents_label_and_template_or_rewrites_it():
    parents = [Plan("A", "north"), Plan("A", "north"), Plan("B", "east")]
    reservoir = [Plan("A", "north", 7), Plan("A", "east", 8)]
    out = evolution.variations(parents, reservoir, lambda p: Plan(p.label, p.template_id, -1))
    assert out == [Plan("A", "north", 7), Plan("A", "north", -1), Plan("B", "east", -1)]


def test_template_weights_add_the_floor_and_drop_negative_votes():
    plans = [Plan("A", "north"), Plan("A", "north"), Plan("A", "east"), Plan("B", "free")]
    got = evolution.template_weights(plans, np.array([3.0, 1.0, -2.0, 9.0]), floor=1.0)
    assert got == {"A": {"east": round(1 / 6, 6), "north": round(5 / 6, 6)}}


def test_the_loop_replays_its_noise_and_moves_towards_the_private_tickets():
    """Every private ticket points north: each round's released votes are the exact
    nearest-candidate counts plus the replayed N(0, (z√2)²) draws, and after four rounds
    north outweighs east."""
    private = np.array([NORTH] * 40)
    first = population([Plan("A", "north")] * 2 + [Plan("A", "east")] * 6)
    seen = []

    def vary(parents, round_):
        plans = [Plan(p.label, p.template_id, round_) for p in parents]
        return plans, [p.template_id for p in plans]

    def on_round(report, pop):
        seen.append((report.round, nearest_votes(private, pop.vectors), report.noisy_votes))

    embed = lambda texts: np.array([NORTH if t == "north" else EAST for t in texts])
    z = 0.8
    last, votes = evolution.evolve(
        private,
        first,
        vary,
        embed,
        4,
        z,
        np.random.default_rng(1),
        on_round,
        noise_rng=np.random.default_rng(9),
    )
    replay = np.random.default_rng(9)
    for expected_round, (round_, exact, released) in enumerate(seen, start=1):
        assert round_ == expected_round
        assert np.array_equal(released, exact + replay.normal(0, z * SENSITIVITY, len(exact)))
    assert len(seen) == 4 and len(last.plans) == 8
    weights = evolution.template_weights(last.plans, votes, floor=z * SENSITIVITY)["A"]
    assert weights["north"] > 0.9
    assert sum(p.template_id == "north" for p in last.plans) > 2  # grew from 2 of 8
