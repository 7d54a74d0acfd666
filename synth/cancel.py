"""A served batch whose clients have all left stops decoding (`hrsynth serve`).

The server runs each engine call inside `cancel_when(check)`; an engine reads the check
once when its call starts (`current()`, on the calling thread: its own decoding threads
cannot see a thread-local) and stops its rows when the check says so. What a cancelled
call returns is never read. An engine that never asks decodes to the end, as before.
"""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_local = threading.local()


def _never() -> bool:
    return False


@contextmanager
def cancel_when(check: Callable[[], bool]) -> Iterator[None]:
    """Engine calls made on this thread inside the block stop once `check()` is true."""
    previous = getattr(_local, "check", None)
    _local.check = check
    try:
        yield
    finally:
        _local.check = previous


def current() -> Callable[[], bool]:
    """The check of the engine call starting on this thread (never true outside a
    server's call)."""
    return getattr(_local, "check", None) or _never


def watched() -> bool:
    """Whether an engine call starting on this thread may be cancelled (a server's)."""
    return getattr(_local, "check", None) is not None
