"""Settings checked against their dataclass annotations, before any work starts.

A YAML file or a CLI override can hold any type: `top_k: "50"`, `batch_size: true` or
`countries: US` would otherwise surface deep inside a Ray actor, after a cluster has
scaled up. `check_fields` names the field, the type it needs and the value it got.
"""

import types
import typing
from dataclasses import dataclass, fields

from synth import ConfigError

NAMES = {
    int: "an integer",
    float: "a number",
    bool: "true or false",
    str: "a string",
    dict: "a mapping",
    list: "a list",
    type(None): "empty (null)",
}


@dataclass(frozen=True)
class Range:
    """Bounds of a number, declared beside its type: `Annotated[int, Range(ge=1)]`.
    check_fields enforces them with the type, so `concurrency: 0` fails on the driver,
    not inside the actors."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None

    def __str__(self) -> str:
        bounds = ((">=", self.ge), (">", self.gt), ("<=", self.le))
        return " and ".join(f"{op} {v:g}" for op, v in bounds if v is not None)

    def holds(self, value) -> bool:
        return not (
            (self.ge is not None and value < self.ge)
            or (self.gt is not None and value <= self.gt)
            or (self.le is not None and value > self.le)
        )


def _matches(value, hint) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arm) for arm in typing.get_args(hint))
    if origin is list:
        (item,) = typing.get_args(hint) or (object,)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    if origin is dict:
        return isinstance(value, dict)
    if origin is typing.Literal:
        return isinstance(value, str) and value in typing.get_args(hint)
    if hint is object:
        return True
    if hint is float:  # an integer is a number; true is not
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def describe(hint) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe(arm) for arm in typing.get_args(hint))
    if origin is list:
        (item,) = typing.get_args(hint) or (object,)
        return "a list" if item is object else f"a list of {describe(item).split(' ', 1)[1]}s"
    if origin is dict:
        return "a mapping"
    if origin is typing.Literal:
        return ", ".join(repr(a) for a in typing.get_args(hint))
    return NAMES.get(hint, getattr(hint, "__name__", str(hint)))


def check_fields(obj, where: str, name=str) -> None:
    """Raise ConfigError on the first field whose value does not fit its annotation;
    `name` spells a field in the message (a CLI job's flags: '--num-docs')."""
    hints = typing.get_type_hints(type(obj), include_extras=True)
    for f in fields(obj):
        value, hint = getattr(obj, f.name), hints[f.name]
        ranges = []
        if typing.get_origin(hint) is typing.Annotated:
            hint, *extras = typing.get_args(hint)
            ranges = [r for r in extras if isinstance(r, Range)]
        if not _matches(value, hint):
            raise ConfigError(f"{where}{name(f.name)} must be {describe(hint)}, got {value!r}")
        for bounds in ranges:
            if value is not None and not bounds.holds(value):
                raise ConfigError(f"{where}{name(f.name)} must be {bounds}, got {value!r}")


def reject_unknown(settings, cls, where: str = "") -> None:
    """Raise ConfigError when `settings` (a mapping) names a field `cls` does not have."""
    known = {f.name for f in fields(cls)}
    unknown = set(settings) - known
    if unknown:
        raise ConfigError(f"{where}unknown setting(s) {sorted(unknown)}; known: {sorted(known)}")
