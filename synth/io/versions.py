"""Versioned dataset folders under one root, a `latest` pointer, and retention.

Layout (a local path or any pyarrow-filesystem URI):

    ROOT/v=20261123T020000.000Z/data/      the generate job's shards and manifest
    ROOT/v=…/eval/                          the evaluation of that version
    ROOT/v=…/_refresh.json                  status: succeeded | failed, steps, times
    ROOT/latest.json                        {"version": "v=…", …}
    ROOT/history.parquet                    metrics of every evaluated version

Version names are UTC timestamps, so sorting by name is sorting by time. The pointer is
written to a temporary name and then moved over `latest.json`: readers see the old
pointer or the new one, never half of one (a rename on local disks; on object stores a
single object appears whole). Only a refresh that succeeded moves it.
"""

import time

import pyarrow.fs as pafs

from synth import ConfigError
from synth.io.layout import MANIFEST, kept
from synth.io.storage import exists, filesystem, join, read_state, write_json

LATEST = "latest.json"
STATUS = "_refresh.json"
PREFIX = "v="


def new_version(now: float | None = None) -> str:
    """`v=` + UTC time to the millisecond: sortable, and unique per refresh."""
    now = time.time() if now is None else now
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now))
    return f"{PREFIX}{stamp}.{int(now * 1000) % 1000:03d}Z"


REWRITE = "rerun `hrsynth refresh` to rewrite it, or point it at a good version by hand"


def read_latest(root: str) -> dict | None:
    fs, folder = filesystem(root)
    path = join(folder, LATEST)
    return read_state(fs, path, REWRITE) if exists(fs, path) else None


def move_latest(root: str, doc: dict) -> None:
    """Point `latest` at doc["version"]."""
    write_json(join(root, LATEST), doc)


def resolve(location: str) -> str:
    """A root with a `latest` pointer → the data folder of that version; else unchanged.

    Lets a scheduled evaluation say `--train ROOT` and always read the newest good
    dataset.
    """
    if location.lower().endswith((".csv", ".jsonl", ".json")):
        return location
    fs, folder = filesystem(location)
    if exists(fs, kept(folder, MANIFEST)) or not exists(fs, join(folder, LATEST)):
        return location
    version = read_state(fs, join(folder, LATEST), REWRITE).get("version", "")
    if not version.startswith(PREFIX) or "/" in version:
        raise ConfigError(
            f"{join(location, LATEST)}: 'version' must name a {PREFIX}… folder, "
            f"got {version!r}; rerun `hrsynth refresh` to rewrite it"
        )
    return join(location.rstrip("/"), f"{version}/data")


def list_versions(root: str) -> list[dict]:
    """Every version folder under root, oldest first, with its refresh status."""
    fs, folder = filesystem(root)
    found = fs.get_file_info(pafs.FileSelector(folder, allow_not_found=True))
    out = []
    for info in sorted(found, key=lambda i: i.base_name):
        if info.type != pafs.FileType.Directory or not info.base_name.startswith(PREFIX):
            continue
        status_path = join(info.path, STATUS)
        status = (
            read_state(fs, status_path, "delete that version folder or fix the file").get("status")
            if exists(fs, status_path)
            else None
        )
        out.append({"version": info.base_name, "path": info.path, "status": status})
    return out


def prune(root: str, keep: int) -> list[str]:
    """Delete version folders older than the `keep` newest successful ones.

    Failed or unfinished versions newer than that stay (they are recent, and worth
    reading); the version `latest` names is never deleted. Returns the deleted names.
    """
    if keep < 1:
        raise ConfigError(f"--keep must be ≥ 1, got {keep}")
    fs, _ = filesystem(root)
    versions = list_versions(root)
    good = [v["version"] for v in versions if v["status"] == "succeeded"]
    if len(good) <= keep:
        return []
    oldest_kept = good[-keep]
    pointed = (read_latest(root) or {}).get("version")
    deleted = []
    for v in versions:
        if v["version"] < oldest_kept and v["version"] != pointed:
            fs.delete_dir(v["path"])
            deleted.append(v["version"])
    return deleted
