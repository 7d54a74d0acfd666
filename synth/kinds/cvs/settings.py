"""The `cvs:` section of a generation config: the CV kind's own settings."""

from dataclasses import dataclass
from typing import Literal

from synth.typed import option


@dataclass
class CVSettings:
    """CVs only."""

    roles: Literal["dp_model", "balanced"] = option(
        "dp_model",
        "dp_model: each CV's role drawn from the DP model's role marginal (the synthetic-CV paper); "
        "balanced: every role equally often. Both spend no further ε",
    )

    attributes: Literal["dp_model", "public"] = option(
        "dp_model",
        "dp_model: roles, universities, employers and years drawn from the DP CV model; "
        "public: from the public lists alone (no private data, no ε: the CVs `hrsynth "
        "detector build` trains on)",
    )

    def check(self) -> None:
        """Nothing a type cannot say (the choices are Literal: checked, and in the schema)."""
