"""The `cvs:` section of a generation config: the CV kind's own settings."""

from dataclasses import dataclass

from synth import ConfigError
from synth.typed import option


@dataclass
class CVSettings:
    """CVs only."""

    roles: str = option(
        "dp_model",
        "dp_model: each CV's role drawn from the DP model's role marginal (the synthetic-CV paper); "
        "balanced: every role equally often. Both spend no further ε",
    )

    attributes: str = option(
        "dp_model",
        "dp_model: roles, universities, employers and years drawn from the DP CV model; "
        "public: from the public lists alone (no private data, no ε: the CVs `hrsynth "
        "detector build` trains on)",
    )

    def check(self) -> None:
        if self.roles not in ("dp_model", "balanced"):
            raise ConfigError(f"cvs.roles '{self.roles}' unknown; use 'dp_model' or 'balanced'")
        if self.attributes not in ("dp_model", "public"):
            raise ConfigError(
                f"cvs.attributes '{self.attributes}' unknown; use 'dp_model' or 'public'"
            )
