"""The ε ledger: every differentially private mechanism call, with its cost.

Neighbouring relation: replace-one (bounded DP; the table size n is public), stated once
here and used by every sensitivity in privbayes.py. Sequential composition: the total
spent is the sum of the entries and never exceeds the budget.
"""

import math
from dataclasses import dataclass, field

RELATION = "replace-one (bounded DP: n is public, one row's values may change)"


@dataclass
class Ledger:
    budget: float
    entries: list[dict] = field(default_factory=list)

    @property
    def spent(self) -> float:
        return math.fsum(e["epsilon"] for e in self.entries)

    @property
    def delta(self) -> float:
        return math.fsum(e.get("delta", 0.0) for e in self.entries)

    def spend(
        self, purpose: str, epsilon: float, sensitivity: float, mechanism: str, delta: float = 0.0
    ) -> None:
        """Record one mechanism call; `delta` > 0 for an (ε, δ) one (its δs add up too)."""
        if epsilon <= 0:
            raise ValueError(f"a mechanism call must spend ε > 0, got {epsilon}")
        if math.fsum([self.spent, epsilon]) > self.budget:
            raise RuntimeError(
                f"ε budget exceeded: {self.spent:.6g} spent + {epsilon:.6g} > {self.budget}"
            )
        self.entries.append(
            {
                "purpose": purpose,
                "epsilon": epsilon,
                "sensitivity": sensitivity,
                "mechanism": mechanism,
            }
            | ({"delta": delta} if delta > 0 else {})
        )

    def to_dict(self) -> dict:
        return {
            "budget": self.budget,
            "spent": self.spent,
            **({"delta": self.delta} if self.delta > 0 else {}),
            "relation": RELATION,
            "composition": "sequential",
            "entries": self.entries,
        }
