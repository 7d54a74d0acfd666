"""The `tickets:` section of a generation config: the ticket kind's own settings."""

from dataclasses import dataclass
from typing import Literal

from synth import ConfigError
from synth.typed import option


@dataclass
class TicketSettings:
    """Tickets only: templates, how values are written, the writer's traits."""

    templates: Literal["all", "classic"] | list[str] = option(
        "classic", "classic (the first release's four per label), all, or template ids"
    )
    value_forms: str = option(
        "canonical",
        "canonical (as sampled), all (every form in synth/data/forms/forms.yaml, by "
        "weight), half_a / half_b (the holdout halves)",
    )
    traits: dict = option(
        {},
        "register, greeting, sign-off, header, target length, omission, slips "
        "(synth/kinds/tickets/traits.py)",
    )
    writing_profile: str | None = option(
        None,
        "a writing profile from `hrsynth profile`: sets the traits, a length per label, the "
        "forms' weights and the label mix from a user's own tickets (docs/profile.md)",
    )
    label_mix: Literal["profile", "balanced"] = option(
        "profile",
        "profile: the writing profile's label shares, when it has them; balanced: every "
        "label equally often (without a profile, always balanced)",
    )

    def check(self) -> None:
        """What a type cannot say: the forms mode and the traits exist."""
        from synth.kinds.tickets.forms import MODES
        from synth.kinds.tickets.traits import traits_from

        if self.value_forms not in MODES:
            raise ConfigError(f"value_forms '{self.value_forms}' unknown; use one of {list(MODES)}")
        traits_from(self.traits)
