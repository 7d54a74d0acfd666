"""Extensions that live in another package: backends, document kinds, evaluation tasks
and personal-data detectors registered as entry points, found beside hrsynth's own
(docs/extending.md).

A package registers a name in its pyproject.toml, under
`[project.entry-points."hrsynth.backends"]` (or `hrsynth.kinds`, `hrsynth.tasks`,
`hrsynth.detectors`), pointing at its module (a task: `module:TASK`; a detector:
`module:Class`). Installed, it is seen by every process that imports hrsynth, the Ray workers included:
the one thing a monkeypatched registry cannot reach.
"""

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
