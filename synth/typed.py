"""Settings declared as dataclass fields (`option`: default, help, role) and checked
against their annotations by pydantic, before any work starts.

A YAML file or a CLI override can hold any type: `top_k: "50"`, `batch_size: true` or
`countries: US` would otherwise surface deep inside a Ray actor, after a cluster has
scaled up. pydantic validates a settings class's fields strictly (no "50" read as 50),
with the ranges declared beside the type (`Annotated[int, Field(ge=1)]`) and no unknown
key; `check` turns its first complaint into one line naming the field, the type it needs
(worded from the field's JSON schema) and the value it got.

The check only reads: objects are built from the values as given, so a record, and with
it a run's fingerprint, stays exactly as written.
"""

import typing
from copy import deepcopy
from dataclasses import MISSING, field, fields
from functools import cache
from typing import Annotated

from pydantic import ConfigDict, Field, ValidationError, create_model

from synth import ConfigError

# The range vocabulary, defined once (issue 73): the settings of every command, a kind's
# own section and the decoding parameters declare their fields with these, and `check`
# names the flag and the bound in one line and writes them into the JSON schema; a
# float is also finite.
Positive = Annotated[int, Field(ge=1)]
Count = Annotated[int, Field(ge=0)]
PositiveNumber = Annotated[float, Field(gt=0, allow_inf_nan=False)]
NonNegativeNumber = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Share = Annotated[float, Field(ge=0, lt=1, allow_inf_nan=False)]  # [0, 1)
OpenShare = Annotated[float, Field(gt=0, lt=1, allow_inf_nan=False)]  # (0, 1)
Fraction = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]  # [0, 1]
# Sampling, one range each for generate, deidentify and serve: a temperature above 5
# is near-uniform noise (0: greedy where a command allows it); top_p keeps a non-empty
# prefix; min_p, a share of the likeliest token's probability (0: off).
Temperature = Annotated[float, Field(ge=0, le=5, allow_inf_nan=False)]
TopP = Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)]
MinP = Fraction
Penalty = Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)]

WORDS = {
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "string": "a string",
    "object": "a mapping",
    "null": "empty (null)",
}
BOUNDS = {
    "greater_than_equal": ">=",
    "greater_than": ">",
    "less_than_equal": "<=",
    "less_than": "<",
}


def option(default=MISSING, help: str = "", role: str | None = None, names=None):
    """A setting: `default` (none: required) and `help` for the CLI. A list setting is a
    flag given once per item (--train A --train B). `role`: "input" (a file or folder the
    job reads) or "output" (one it writes): no output may be an input or hold one.
    `names`: a function giving the values it may take, read from a registry when the
    command line is built, for its help (an installed backend or kind is listed without
    an edit here; the registry's own lookup refuses an unknown one)."""
    meta = {"help": help, "role": role, "names": names}
    if default is MISSING:
        return field(metadata=meta)
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: deepcopy(default), metadata=meta)
    return field(default=default, metadata=meta)


@cache
def model(cls):
    """A strict pydantic model of the dataclass `cls` (a missing key is not checked: the
    dataclass's default applies). Fields go by their names as aliases, so that a setting
    called `schema` or `json` does not shadow the model's own methods."""
    hints = typing.get_type_hints(cls, include_extras=True)
    strict = ConfigDict(strict=True, extra="forbid")
    return create_model(cls.__name__, __config__=strict, **{
        f"f_{f.name}": (hints[f.name], Field(
            None, alias=f.name, title=f.name, description=f.metadata.get("help") or None
        ))
        for f in fields(cls)
    })  # fmt: skip


def known(cls) -> list[str]:
    return sorted(f.name for f in fields(cls))


def reject_unknown(values: dict, cls, where: str = "") -> None:
    """Raise ConfigError when `values` names a field `cls` does not have."""
    unknown = sorted(set(values) - set(known(cls)))
    if unknown:
        raise ConfigError(f"{where}unknown setting(s) {unknown}; known: {known(cls)}")


def check_object(obj, where: str = "", name=str) -> None:
    """check() on a dataclass instance's fields."""
    check(type(obj), {f.name: getattr(obj, f.name) for f in fields(obj)}, where, name)


def check(cls, values: dict, where: str = "", name=str) -> None:
    """Raise ConfigError for an unknown key, else for the first value that does not fit its
    field; `where` prefixes the message ('engine.') and `name` spells a field ('--seed')."""
    reject_unknown(values, cls, where)
    try:
        model(cls).model_validate(values)
    except ValidationError as e:
        error = e.errors()[0]
        key = error["loc"][0]
        value = values[key]
        if len(error["loc"]) > 1 and isinstance(value, dict):  # inside a typed mapping
            hint = typing.get_type_hints(cls, include_extras=True)[key]
            check_value(hint, value, f"{where}{name(key)}")
        if error["type"] in BOUNDS:
            bound = next(iter(error["ctx"].values()))
            need = f"{BOUNDS[error['type']]} {bound:g}"
        elif error["type"] == "finite_number":
            need = "a finite number"
        else:
            need = describe(model(cls).model_json_schema()["properties"][key])
        raise ConfigError(f"{where}{name(key)} must be {need}, got {value!r}") from None


def describe(schema: dict) -> str:
    """A field's JSON schema in words: 'an integer', 'a list of strings', "'a', 'b'"."""
    if "anyOf" in schema:
        return " or ".join(describe(arm) for arm in schema["anyOf"])
    if "enum" in schema or "const" in schema:
        return ", ".join(repr(v) for v in schema.get("enum", [schema.get("const")]))
    if schema.get("type") == "array":
        items = schema.get("items", {}).get("type")
        return f"a list of {WORDS[items].split(' ', 1)[1]}s" if items in WORDS else "a list"
    return WORDS.get(schema.get("type"), "a value of another type")


def check_value(hint, value, where: str) -> None:
    """`value` against a type of the vocabulary above nested in mappings (a TypedDict,
    a union with a mapping): ConfigError naming the innermost key and its bound,
    `where.key.inner must be <= 1, got 1.5`."""
    from pydantic import TypeAdapter

    try:
        TypeAdapter(hint, config=None).validate_python(value, strict=True)
    except ValidationError as e:
        error = min(e.errors(), key=lambda err: -len(err["loc"]))  # the deepest
        path, found = [where], value
        for step in error["loc"]:
            if isinstance(found, dict) and step in found:
                path.append(str(step))
                found = found[step]
        if error["loc"][-1] == "[key]":  # a mapping's key, not its value, is wrong
            path.pop()
            found = error["loc"][-2]
        if error["type"] == "missing":
            raise ConfigError(f"{'.'.join(path)} needs {error['loc'][-1]}, got {found!r}")
        if error["type"] in BOUNDS:
            need = f"{BOUNDS[error['type']]} {next(iter(error['ctx'].values())):g}"
        elif error["type"] == "finite_number":
            need = "a finite number"
        elif error["type"] == "extra_forbidden":
            need = "a known setting"
        else:
            need = error["msg"].lower().removeprefix("input should be ")
        raise ConfigError(f"{'.'.join(path)} must be {need}, got {found!r}") from None


def _inlined(schema: dict) -> dict:
    """A schema whose `$defs` references are written in place: a class's schema stands
    inside another (a config section) where `#/$defs/…` would point elsewhere."""
    defs = schema.pop("$defs", {})

    def walk(node):
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return walk(
                    {
                        **defs[ref.removeprefix("#/$defs/")],
                        **{k: v for k, v in node.items() if k != "$ref"},
                    }
                )
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


def json_schema(cls) -> dict:
    """The JSON schema of a settings class (its defaults included): for editors that check
    a YAML file as it is typed, and for other tools reading the same settings."""
    schema = _inlined(model(cls).model_json_schema())
    for f in fields(cls):
        if f.default is not MISSING:
            schema["properties"][f.name]["default"] = f.default
        elif f.default_factory is not MISSING:
            schema["properties"][f.name]["default"] = f.default_factory()
    schema["title"] = cls.__name__
    return schema


def key_values(text: str | None, flag: str, example: str) -> dict[str, str]:
    """`KEY=VALUE[,KEY=VALUE]` as given to `flag` (--method-option, --step-option), read;
    a key given twice, or an item that is not KEY=VALUE, is one line naming it."""
    from synth import ConfigError

    out: dict[str, str] = {}
    for item in (p.strip() for p in (text or "").split(",")):
        if not item:
            continue
        key, eq, value = (p.strip() for p in item.partition("="))
        if not eq or not key:
            raise ConfigError(f"{flag} {item!r} is not KEY=VALUE (e.g. {example})")
        if key in out:
            raise ConfigError(f"{flag} {key} given twice; give it once")
        out[key] = value
    return out
