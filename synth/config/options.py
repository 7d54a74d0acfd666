"""Job options as dataclasses: one field per setting, its default and help beside it.

A job's options class is the one place its settings are defined. The CLI is built from
it (`add_options`), and `options_from` turns parsed flags, a mapping or another job's
options object into a checked instance: the same validation whichever way a job is
started, so `refresh` and `cv-experiment` call other jobs with objects, not argv.
"""

import argparse
import typing
from dataclasses import MISSING, asdict, fields, is_dataclass

from synth import ConfigError
from synth.typed import check_object, reject_unknown


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _base(hint):
    """The annotation without its `| None` arm."""
    arms = [a for a in typing.get_args(hint) if a is not type(None)]
    return arms[0] if typing.get_origin(hint) in (typing.Union, type(int | None)) else hint


def add_options(parser: argparse.ArgumentParser, cls, names: dict | None = None) -> None:
    """One flag per field. Flags default to None: only what the user gave overrides.
    `names`: {field: function} for fields whose values a job's own registry lists."""
    hints = typing.get_type_hints(cls)
    names = names or {}
    for f in fields(cls):
        hint, meta = _base(hints[f.name]), f.metadata
        required = f.default is MISSING and f.default_factory is MISSING
        default = None if required else f.default if f.default is not MISSING else None
        help_text = meta.get("help", "")
        if default is not None and default is not False and default != "":
            help_text += f" (default: {default})"
        kwargs = {"dest": f.name, "default": None, "help": help_text, "required": required}
        listed = names.get(f.name) or meta.get("names")
        if listed:
            kwargs["help"] += f" (from: {', '.join(listed())})"
        if hint is bool:
            kwargs["action"] = "store_true"
        elif typing.get_origin(hint) is typing.Literal:
            kwargs["choices"] = typing.get_args(hint)
        elif typing.get_origin(hint) is list:
            kwargs["action"] = "append"
        elif hint in (int, float):
            kwargs["type"] = hint
        parser.add_argument(flag(f.name), **kwargs)


def options_from(cls, source):
    """A checked `cls` from parsed flags (argparse.Namespace), a mapping, or an instance.

    Unknown keys, missing required settings and values of the wrong type end in a
    ConfigError naming the flag; then the class's own `check()` runs, if it has one."""
    known = {f.name: f for f in fields(cls)}
    if is_dataclass(source):
        values = asdict(source)
    elif isinstance(source, argparse.Namespace):
        values = {k: v for k, v in vars(source).items() if k in known and v is not None}
    else:
        values = dict(source)
    reject_unknown(values, cls)
    missing = [
        flag(n)
        for n, f in known.items()
        if n not in values and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        raise ConfigError(f"{', '.join(missing)} required; see --help")
    obj = cls(**values)
    check_object(obj, "", name=flag)
    if hasattr(obj, "check"):
        obj.check()
    check_inputs_kept(obj)
    return obj


def check_inputs_kept(obj) -> None:
    """Refuse, before any work, an output that is one of the job's inputs or a folder
    holding one (the user's private tickets overwritten by synthetic ones), an output
    inside an input folder (the next run reads it as input), or two outputs in one
    place."""
    from synth.io.locations import check_apart, inside

    def places(role):
        for f in fields(obj):
            if f.metadata.get("role") == role:
                value = getattr(obj, f.name)
                for where in value if isinstance(value, list) else [value]:
                    if isinstance(where, str) and where:
                        yield f.name, where

    outputs = list(places("output"))
    for out_name, out in outputs:
        for in_name, where in places("input"):
            if inside(where, out):
                raise ConfigError(
                    f"{flag(out_name)} {out} would write over {flag(in_name)} {where}, an "
                    f"input of this job; give {flag(out_name)} another path"
                )
            if inside(out, where):
                raise ConfigError(
                    f"{flag(out_name)} {out} lies inside {flag(in_name)} {where}, a folder this "
                    f"job reads: its next run would read its own output; give "
                    f"{flag(out_name)} a path outside it"
                )
    check_apart(**dict(outputs))
