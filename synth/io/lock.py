"""One writer at a time: per output folder, a lock file naming its holder; per file of
shared state (the privacy account, the detector registry, model caches), a file lock
held for one read-modify-write.

Two runs writing one folder at once would leave shards of both under one manifest: a
silently mixed dataset. A job holds `_lock.json` (host, pid, job, since) beside its
output (`OUT.hrsynth/`, synth.io.layout) for as long as it writes there. A second run is refused in one line naming the holder.
A lock whose holder is gone (same host, no such process: a killed run) is stale: it is
named, and the new run takes it over, so a run killed with SIGKILL still resumes.

Local folders only: object stores have no exclusive create, so on a URI the job relies
on its scheduler (one CronJob with concurrencyPolicy: Forbid) and says so in its docs.
"""

import json
import os
import socket
import time
from contextlib import contextmanager, nullcontext

import pyarrow.fs as pafs

from synth import ConfigError
from synth.io.layout import LOCK, kept, sibling
from synth.io.storage import filesystem


@contextmanager
def output_lock(folder: str, job: str):
    """Hold `folder`'s lock while the block runs (created folder included)."""
    fs, path = filesystem(str(folder))
    if not isinstance(fs, pafs.LocalFileSystem):
        yield
        return
    side = sibling(path)  # where the lock lies (synth.io.layout)
    created = [p for p in (path, side) if not os.path.isdir(p)]
    lock = kept(path, LOCK)
    me = {"host": socket.gethostname(), "pid": os.getpid(), "job": job, "since": time.time()}
    if os.path.isfile(path):
        raise ConfigError(
            f"--output {folder} is a file; give a folder (shards and a manifest are written "
            "into it)"
        )
    if os.path.lexists(side) and not os.path.isdir(side):
        raise ConfigError(
            f"--output {folder}: {side} is a file, where the job keeps the run's own files "
            "(run file, manifest, digests); move it away, or use a new --output"
        )
    while True:
        try:
            os.makedirs(path, exist_ok=True)
            os.makedirs(side, exist_ok=True)
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            holder = _holder(lock, folder)
            if holder is None:  # released meanwhile: try again
                continue
            if not _gone(holder):
                _remove_if_empty(created)
                raise ConfigError(
                    f"--output {folder} is being written by {holder['job']} (pid "
                    f"{holder['pid']} on {holder['host']}, since "
                    f"{_when(holder['since'])}); "
                    f"wait for it to end or use another --output (if no such run is alive, "
                    f"delete {lock})"
                ) from None
            print(
                f"{lock}: stale lock of a run that is gone (pid {holder['pid']} on "
                f"{holder['host']}); taking it over"
            )
            _remove_if(lock, holder)
        except OSError as e:  # read-only, a name past the file system's limit, no access
            raise ConfigError(
                f"--output {folder} cannot be written ({e.strerror or type(e).__name__}); "
                "choose a folder you can write to"
            ) from None
    with os.fdopen(fd, "w") as f:
        json.dump(me, f)
    try:
        yield
    finally:
        _remove_if(lock, me)
        _remove_if_empty(created)


def _when(since: float) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since))
    except (OverflowError, OSError, ValueError):
        return f"time {since!r}"


def _remove_if_empty(created: list[str]) -> None:
    """Folders the lock created and nothing filled (a run refused before any work) are
    removed: a refusal leaves no trace."""
    for path in created:
        try:
            os.rmdir(path)
        except OSError:
            pass  # not empty: the run wrote there


def _holder(lock: str, folder: str) -> dict | None:
    """The lock's holder as a job writes it (host, pid, job, since); one line naming the
    file when it is something else (a list, a pid that is not a number, a folder)."""
    try:
        with open(lock) as f:
            holder = json.load(f)
    except FileNotFoundError:
        if os.path.islink(lock):  # a link to nothing: os.open still finds a file there
            raise ConfigError(_damaged(lock, "is a link to nothing")) from None
        return None  # released meanwhile
    except IsADirectoryError:
        raise ConfigError(_damaged(lock, "is a folder")) from None
    except (OSError, ValueError):
        # written by os.open then json.dump: empty only for an instant, or after a crash
        if time.time() - os.path.getmtime(lock) > 5:
            return {"host": socket.gethostname(), "pid": -1, "job": "?", "since": 0}
        raise ConfigError(
            f"--output {folder} is being locked by another run right now; retry in a moment"
        ) from None
    types = {"host": str, "pid": int, "job": str, "since": (int, float)}
    if (
        not isinstance(holder, dict)
        or any(
            not isinstance(holder.get(k), t) or isinstance(holder.get(k), bool)
            for k, t in types.items()
        )
        or holder["pid"] <= 0
    ):
        raise ConfigError(_damaged(lock, "is not the lock a job writes (host, pid, job, since)"))
    return {k: holder[k] for k in types}


def _damaged(lock: str, what: str) -> str:
    return (
        f"{lock} {what}; no job can tell whether a run holds it: if none is writing "
        "there, delete it"
    )


def _gone(holder: dict) -> bool:
    """The holder is known dead: it ran on this host and no such process exists."""
    if holder["pid"] == -1:
        return True
    if holder["host"] != socket.gethostname():
        return False
    try:
        os.kill(holder["pid"], 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, ValueError):
        return False  # not ours to probe (a pid past the system's range is not gone)
    return False


def _remove_if(lock: str, holder: dict) -> None:
    """Delete the lock if it is still `holder`'s (never one another run took meanwhile)."""
    try:
        with open(lock) as f:
            current = json.load(f)
    except (OSError, ValueError):
        current = None
    if current is None or current.get("pid") == holder["pid"]:
        try:
            os.unlink(lock)
        except FileNotFoundError:
            pass


def shared_state_lock(location: str, timeout_s: float = 600):
    """An exclusive lock on `location` (a file another process may read, change and
    rewrite at the same time) for one read-modify-write; waits for the holder. A
    `filelock` beside the file on a local disk; object stores have no lock (nullcontext)."""
    import filelock

    fs, path = filesystem(str(location))
    if not isinstance(fs, pafs.LocalFileSystem):
        return nullcontext()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    folder, name = os.path.split(path)
    return filelock.FileLock(os.path.join(folder, f".{name}.lock"), timeout=timeout_s)
