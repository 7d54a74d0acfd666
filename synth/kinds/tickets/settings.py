"""The `tickets:` section of a generation config: the ticket kind's own settings."""

from dataclasses import dataclass
from typing import Literal

from synth.kinds.tickets.forms.catalogue import ValueForms
from synth.kinds.tickets.traits import TraitsMapping
from synth.typed import option


@dataclass
class TicketSettings:
    """Tickets only: templates, how values are written, the writer's traits."""

    templates: Literal["all", "classic"] | list[str] = option(
        "classic", "classic (the first release's four per label), all, or template ids"
    )
    value_forms: ValueForms = option(
        "canonical",
        "canonical (as sampled), all (every form in synth/data/forms/forms.yaml, by "
        "weight), half_a / half_b (the holdout halves)",
    )
    traits: TraitsMapping = option(
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
        """What a type cannot say: the traits' register weights not all 0."""
        from synth.kinds.tickets.traits import traits_from

        traits_from(self.traits)
