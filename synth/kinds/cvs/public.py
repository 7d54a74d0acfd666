"""CV attribute rows drawn from public lists alone (`cvs.attributes: public`).

The personal-data detector learns what a CV's personal data looks like (its owner's name
in the header, employers, colleges, graduation years, places) from CVs; a fresh clone has
no private CV corpus to fit a DP model on, and the detector needs no realistic role
mix. So each row draws its role from roles.yaml (or balanced), one to two universities
and one to three employers named generically (the planner then names them from the
persona's country: a university of universities_by_country.yaml, a company from Faker),
degrees in their usual order and years uniformly. No private data is read: no ε is spent.
"""

import numpy as np
import pandas as pd

from synth.kinds.cvs.extract.table import GENERIC_COMPANY, NONE, OTHER_UNIVERSITY, SLOTS

DEGREES = ("Bachelor's", "Master's", "PhD")


class PublicRows:
    """Rows shaped as the DP CV model samples them (synth.kinds.cvs.extract.table)."""

    def __init__(self, roles: list[str]):
        self.roles = list(roles)

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        return self.sample_given("role", list(rng.choice(self.roles, size=n)), rng)[0]

    def sample_given(self, column: str, roles: list, rng: np.random.Generator):
        """(rows, clamped): one row per given role (none is ever clamped)."""
        rows = []
        for role in roles:
            row = {"role": str(role), "words": 0}
            universities = int(rng.integers(1, 3))
            companies = int(rng.integers(1, SLOTS + 1))
            for k in range(1, SLOTS + 1):
                held = k <= universities
                row[f"university_{k}"] = OTHER_UNIVERSITY if held else NONE
                row[f"degree_{k}"] = DEGREES[k - 1] if held else NONE
                row[f"company_{k}"] = GENERIC_COMPANY if k <= companies else NONE
                row[f"years_{k}"] = int(rng.integers(1, 9)) if k <= companies else 0
            row["total_years"] = sum(row[f"years_{k}"] for k in range(1, SLOTS + 1))
            row["total_years"] += int(rng.integers(0, 4))
            rows.append(row)
        return pd.DataFrame(rows), 0
