"""What every job's options share: the ranges their typed fields declare (checked by
synth.typed, written into the schema), the ε bound and the encoding check.

The options themselves are split by job family (private_options, generate_options,
evaluate_options, deidentify_options); the CLI (`hrsynth <job> --help`) is built from
them, and `options_from` checks each value's type and range, then the class's `check()`
what a range cannot say, before any data is read or Ray starts."""

import codecs
import math

from synth import ConfigError

# The ranges declared on the typed fields are synth.typed's (defined there once, issue
# 73), named here too for the option classes that import them from this module.
from synth.typed import (  # noqa: F401
    Count,
    Fraction,
    NonNegativeNumber,
    OpenShare,
    Positive,
    PositiveNumber,
    Share,
)

# A budget above this is no privacy guarantee (utility checks need no more); it sends
# the structure search into minutes (demo table: ε = 1e4 takes 5 s, 1e6 over 60 s).
MAX_EPSILON = 1e4


def check_epsilon(name: str, value: float | None) -> None:
    if value is not None and (not math.isfinite(value) or not 0 < value <= MAX_EPSILON):
        raise ConfigError(
            f"{name} must be a number in (0, {MAX_EPSILON:g}], got {value}: beyond that the "
            "noise is nil and the model no longer protects anyone"
        )


def check_encoding(flag: str, encoding: str) -> None:
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ConfigError(
            f"{flag}: unknown encoding {encoding!r}; use a Python codec name such as utf-8 "
            "or latin-1"
        ) from None
