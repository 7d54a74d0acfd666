"""hrsynth library: everything here runs and is tested without Ray."""

from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"


class ConfigError(ValueError):
    """A user-facing input problem: the message names the field and the fix."""


class RunFailed(RuntimeError):
    """A run stopped on purpose (too many rows failed): one line, what was kept, exit 1."""
