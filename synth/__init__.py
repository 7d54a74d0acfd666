"""hrsynth library: everything here runs and is tested without Ray."""

from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"


def one_line(message: str) -> str:
    """`message` with control and invisible format characters written as escapes: a path
    or a header holding a newline or a byte-order mark still makes one readable line."""
    import unicodedata

    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Cf")
        else ch
        for ch in message
    )


class ConfigError(ValueError):
    """A user-facing input problem: the message names the field and the fix, one line."""

    def __str__(self) -> str:
        return one_line(super().__str__())


class RunFailed(RuntimeError):
    """A run stopped on purpose (too many rows failed): one line, what was kept, exit 1."""

    def __str__(self) -> str:
        return one_line(super().__str__())
