"""Where a job reads and writes, compared as the same place whatever its spelling.

A folder can be named as a relative path, an absolute one, a symlink, or a `file://`
URI; an object store as `s3://bucket/a//b/`. Checks that keep the private side apart
from the shareable side (the key outside the output, the output away from the input)
compare canonical forms, so no spelling slips past them.
"""

import os
import posixpath
from urllib.parse import unquote, urlsplit

from synth import ConfigError


def resolved(location: str) -> str:
    """The one spelling every job reads and writes: a local path absolute with `~`
    expanded (a quoted `~` reaches us unexpanded), a URI as given. Checks compare
    `canonical` of the same value, so a check and the write it guards agree."""
    if "://" in location:
        return location
    return os.path.abspath(os.path.expanduser(location))


def canonical(location: str) -> str:
    """Local paths (and file:// URIs) as real absolute paths, symlinks resolved; other URIs
    as scheme://bucket/path with repeated and trailing slashes removed."""
    if "://" not in location:
        return os.path.realpath(resolved(location))
    parts = urlsplit(location)
    if parts.scheme == "file":
        return os.path.realpath(unquote(parts.path) or "/")
    path = posixpath.normpath("/" + parts.path.lstrip("/")) if parts.path.strip("/") else ""
    return f"{parts.scheme}://{parts.netloc}{path}"


def inside(path: str, folder: str) -> bool:
    """`path` is `folder` or somewhere under it."""
    path, folder = canonical(path).rstrip("/"), canonical(folder).rstrip("/")
    return path == folder or path.startswith(folder + "/")


def check_apart(**locations: str | None) -> None:
    """Refuse, before any work, two locations of which one holds the other, or holds the
    folder beside the other where the job keeps its files (synth.io.layout); each given
    as option name=location (None: not given). The message names both options."""
    from synth.io.layout import sibling

    given = [(name, where) for name, where in locations.items() if where]
    for i, (a, where_a) in enumerate(given):
        for b, where_b in given[i + 1 :]:
            if any(
                inside(x, y) or inside(y, x)
                for x, y in (
                    (where_a, where_b),
                    (where_a, sibling(where_b)),
                    (sibling(where_a), where_b),
                )
            ):
                raise ConfigError(
                    f"--{a.replace('_', '-')} {where_a} and --{b.replace('_', '-')} {where_b} "
                    "are the same place or one holds the other; give them separate folders"
                )
