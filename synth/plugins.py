"""Extensions that live in another package: backends, document kinds, evaluation tasks
and personal-data detectors registered as entry points, found beside hrsynth's own
(docs/extending.md).

A package registers a name in its pyproject.toml, under
`[project.entry-points."hrsynth.backends"]` (or `hrsynth.kinds`, `hrsynth.tasks`,
`hrsynth.detectors`), pointing at its module (a task: `module:TASK`; a detector:
`module:Class`). Installed, it is seen by every process that imports hrsynth, the Ray
workers included: the one thing a monkeypatched registry cannot reach.
"""

import importlib
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points

from synth import ConfigError


@cache
def installed(group: str) -> dict[str, str]:
    """{name: "module" or "module:attribute"} that installed packages register in group
    `hrsynth.<group>`; read once per process."""
    return {ep.name: ep.value for ep in entry_points(group=f"hrsynth.{group}")}


def registry(group: str, own: dict) -> dict:
    """hrsynth's own entries, then the installed ones; a name taken twice is refused, so
    an installed package cannot quietly replace a built-in."""
    found = installed(group)
    taken = sorted(set(found) & set(own))
    if taken:
        raise ConfigError(
            f"an installed package registers {group} {taken}, which hrsynth has already; "
            f'rename them in its [project.entry-points."hrsynth.{group}"]'
        )
    return {**own, **found}


def load(group: str, name: str, target: str, surface: tuple[str, ...] = ()):
    """What `target` ("module" or "module:attribute") names, checked to have `surface`: an
    extension that cannot be imported, or lacks part of what its group gives, is one line
    naming it and the fix, not a traceback from inside a job or an actor."""
    what = f"{group.removesuffix('s')} {name!r} ({target})"
    module_name, _, attribute = target.partition(":")
    try:
        found = importlib.import_module(module_name)
        found = getattr(found, attribute) if attribute else found
    # An import may raise anything: SyntaxError, its own error, and also SystemExit or
    # KeyboardInterrupt, which would otherwise end the command silently (exit 0 from
    # `sys.exit(0)`) or with a traceback (issue 72).
    except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001
        raise ConfigError(
            f"{what} cannot be loaded ({type(e).__name__}: {_first_line(e)}); fix or "
            "reinstall the package that registers it"
        ) from None
    missing = [part for part in surface if not hasattr(found, part)]
    if missing:
        raise ConfigError(
            f"{what} lacks {', '.join(missing)}; docs/extending.md lists what a "
            f"{group.removesuffix('s')} gives"
        )
    return found


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else "no message"


def help_names(group: str, own, check: Callable[[str], object]) -> list[str]:
    """Every name of `group` for --help, which must never fail because of a plugin: an
    installed one that clashes with a built-in, or that `check(name)` refuses, is listed
    as `NAME (broken)`; running it says why in one line."""
    listed = list(own)
    for name in installed(group):
        try:
            if name in own:
                raise ConfigError(name)
            check(name)
            listed.append(name)
        except Exception:  # noqa: BLE001 (help never fails: a check may trip on anything)
            listed.append(f"{name} (broken)")
    return listed


def check_installed(group: str, own, check: Callable[[str], object]) -> None:
    """Every installed plugin of `group` loaded and its surface checked (`check(name)`),
    on the driver, in a job's check(): a broken one, or one reusing a built-in name,
    refuses the run in one line naming its entry point, before any work, not in an
    actor after Ray started."""
    registry(group, own)
    for name in installed(group):
        check(name)
