"""Ray's C++ lines off the driver's console.

The driver's Ray core worker writes its ERROR lines to stderr as well as to its log file
(`python-core-driver-*.log` in Ray's log folder), from C++, past Python's logging. Every
Ray Data actor pool prints one of them on a healthy run ("Actor with class name:
'MapWorker(...)' ... has constructor arguments in the object store and max_restarts >
0"): Ray Data itself passes its actors' arguments by reference, and hrsynth's actors
restart after a lost node. A newcomer reads it as a failure.

`drop_native_lines()` puts a pipe in front of this process's stderr (file descriptor 2)
and copies through every line but those in Ray's C++ log format, which its log file
keeps. It is installed after Ray has started, so the processes a local cluster starts
write to their own files, never into the pipe; at exit the pipe is drained first, so the
job's last line (its error, its summary) is never lost.
"""

import atexit
import os
import re
import sys
import threading

# "[2026-12-07 14:29:16,072 E 9911 9911] core_worker.cc:2465: ..." (glog-style, as Ray
# writes its C++ lines: time, severity, pid, thread id, source file and line)
NATIVE_LINE = re.compile(
    rb"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [DIWEF] \d+ \d+\] [\w./-]+\.(cc|h|cpp):\d+: "
)

# Seconds the exit waits for the pipe to drain (a process started after the filter keeps
# the pipe open; its lines are then past the end of the job's own).
DRAIN_S = 2.0

_installed: dict = {}


def is_native(line: bytes) -> bool:
    return NATIVE_LINE.match(line) is not None


def copy_lines(read_fd: int, write_fd: int) -> None:
    """Copy from `read_fd` to `write_fd` until end of file, line by line, leaving out
    Ray's C++ lines; a partial line that cannot be one (a progress bar's redraw) goes
    through at once."""
    pending = b""
    while True:
        try:
            chunk = os.read(read_fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        kept = b"".join(line + b"\n" for line in lines if not is_native(line))
        if pending and not pending.startswith(b"["):
            kept, pending = kept + pending, b""
        _write_all(write_fd, kept)
    _write_all(write_fd, pending if not is_native(pending) else b"")


def _write_all(fd: int, data: bytes) -> None:
    while data:
        try:
            data = data[os.write(fd, data) :]
        except OSError:
            return  # the console is gone: nothing left to show it to


def drop_native_lines() -> None:
    """Filter this process's stderr (see the module's docstring); once per process."""
    if _installed:
        return
    sys.stderr.flush()
    console = os.dup(2)
    read_fd, write_fd = os.pipe()
    os.dup2(write_fd, 2)
    os.close(write_fd)
    thread = threading.Thread(
        target=copy_lines, args=(read_fd, console), name="ray-native-lines", daemon=True
    )
    thread.start()
    _installed.update(console=console, read_fd=read_fd, thread=thread)
    atexit.register(restore_stderr)


def restore_stderr() -> None:
    """Stderr back to the console, after what the pipe holds has been shown."""
    if not _installed:
        return
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os.dup2(_installed["console"], 2)  # the pipe's last writer is gone: the copy ends
    _installed["thread"].join(DRAIN_S)
    if not _installed["thread"].is_alive():
        os.close(_installed["read_fd"])
        os.close(_installed["console"])
    _installed.clear()
