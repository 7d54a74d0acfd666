"""Writer traits: how one ticket is shaped, drawn per ticket from the config's weights.

The Ticket Generator thesis's survey writers were told to use the attribute prompts loosely: some wrote
two lines with no greeting, some a formal email, some left a detail out. A `Traits`
(config `traits:`) says how often each happens; `draw_shape` draws one ticket's shape.
The defaults are the first release's tickets (formal, greeting, sign-off and header
always, every variable used, no slips, no length target), so a config that says nothing
gets what it got before.
"""

from dataclasses import asdict, dataclass, field
from typing import Literal

import numpy as np
from pydantic import ConfigDict
from typing_extensions import TypedDict

from synth import ConfigError
from synth.kinds.tickets.taxonomy import REGISTERS, Subcategory
from synth.typed import Fraction, NonNegativeNumber, PositiveNumber, check_value, reject_unknown

STYLES = ("plain", "chat", "free")


@dataclass(frozen=True)
class Traits:
    register: dict = field(default_factory=lambda: {"formal": 1.0})  # register -> weight
    greeting: float = 1.0  # probability that a ticket opens with a greeting
    sign_off: float = 1.0  # ... closes with a sign-off
    header: float = 1.0  # ... has From/To/Subject lines (the prompt starts with them)
    # Target length in words, drawn from a log-normal with this mean and sd (None: no
    # target, every slot is generated). Later slots are skipped once it is reached.
    length: dict | None = None
    omission: bool = False  # leave variables out at the taxonomy's per-variable rates
    slip_rate: float = 0.0  # share of words that get a typo (outside spans, inside clauses)
    # share of punctuation marks with no space after them ("hi,i need"), and of the
    # spaces inside a sentence that are a line break (text typed in a narrow box)
    run_together: float = 0.0
    line_breaks: float = 0.0
    # probability of a sentence about non-personal dates, numbers and documents
    # (synth/data/shape.yaml `asides`), left unmarked
    aside: float = 0.0
    # probability that a ticket is all in lower case, and that its message ends without
    # a full stop (a writing profile sets them; synth/generation/casing.py applies them)
    lower_case: float = 0.0
    no_final_punctuation: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Shape:
    """One ticket's drawn traits."""

    register: str
    greeting: bool
    sign_off: bool
    header: bool
    target_words: int | None
    omitted: frozenset
    aside: bool = False
    lower_case: bool = False
    bare_end: bool = False


Register = Literal[REGISTERS]  # type: ignore[valid-type] (the taxonomy's registers)


class Length(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[misc]
    mean: PositiveNumber  # words
    sd: PositiveNumber


class TraitsMapping(TypedDict, total=False):
    """A config's `tickets.traits:` as typed (synth.typed's ranges): what the config's
    JSON schema says of it, and what traits_from checks first."""

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[misc]
    register: Register | dict[Register, NonNegativeNumber]
    greeting: Fraction
    sign_off: Fraction
    header: Fraction
    length: Length | None
    omission: bool
    slip_rate: Fraction
    run_together: Fraction
    line_breaks: Fraction
    aside: Fraction
    lower_case: Fraction
    no_final_punctuation: Fraction


def weights(doc, what: str, allowed: tuple[str, ...]) -> dict[str, float]:
    """A name or a {name: weight} mapping, checked: the weights of a categorical draw."""
    if isinstance(doc, str):
        doc = {doc: 1.0}
    if not isinstance(doc, dict) or not doc:
        raise ConfigError(f"{what} must be one of {list(allowed)} or a mapping of them to weights")
    for name, w in doc.items():
        if name not in allowed:
            raise ConfigError(f"{what} '{name}' unknown; use {list(allowed)}")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0:
            raise ConfigError(f"{what}: weight of '{name}' must be a number ≥ 0, got {w!r}")
    if sum(doc.values()) <= 0:
        raise ConfigError(f"{what}: the weights must not all be 0")
    return {k: float(v) for k, v in doc.items()}


def traits_from(doc: dict | None) -> Traits:
    """Checked Traits from a config's `traits:` mapping (missing keys keep defaults):
    typed as TraitsMapping says, then what a type cannot say (weights not all 0)."""
    doc = dict(doc or {})
    reject_unknown(doc, Traits, "traits: ")
    check_value(TraitsMapping, doc, "traits")
    if "register" in doc:
        doc["register"] = weights(doc["register"], "traits.register", REGISTERS)
    return Traits(**doc)


def draw(weights_: dict[str, float], rng: np.random.Generator) -> str:
    """One name from a {name: weight} mapping; no random draw when only one can win."""
    names = [n for n, w in weights_.items() if w > 0]
    if len(names) == 1:
        return names[0]
    p = np.array([weights_[n] for n in names])
    return names[rng.choice(len(names), p=p / p.sum())]


def _happens(p: float, rng: np.random.Generator) -> bool:
    return p >= 1 or (p > 0 and rng.random() < p)


def target_words(length: dict, rng: np.random.Generator) -> int:
    """A log-normal length with the given mean and sd, at least 8 words."""
    sigma2 = np.log(1 + (length["sd"] / length["mean"]) ** 2)
    mu = np.log(length["mean"]) - sigma2 / 2
    return max(8, round(rng.lognormal(mu, np.sqrt(sigma2))))


def draw_shape(
    traits: Traits,
    sub: Subcategory,
    rng: np.random.Generator,
    length: dict | None = None,
    omission: dict | None = None,
) -> Shape:
    """One ticket's shape; `length` and `omission` ({variable: rate}), a writing
    profile's for the label, replace traits' length and the taxonomy's rates."""
    length = length or traits.length
    omitted = frozenset(
        name
        for name, rate in ({**(sub.omission or {}), **(omission or {})}).items()
        if traits.omission and rng.random() < rate
    )
    return Shape(
        register=draw(traits.register, rng),
        greeting=_happens(traits.greeting, rng),
        sign_off=_happens(traits.sign_off, rng),
        header=_happens(traits.header, rng),
        target_words=target_words(length, rng) if length else None,
        omitted=omitted,
        aside=_happens(traits.aside, rng),  # drawn last: configs without asides draw as before
        # no draw at 0: configs without a writing profile draw as before
        lower_case=_happens(traits.lower_case, rng),
        bare_end=_happens(traits.no_final_punctuation, rng),
    )
