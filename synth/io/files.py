"""Reading the project's own data files: YAML with one-line errors that name the file."""

from pathlib import Path

import yaml

from synth import ConfigError


def read_yaml(path: Path, what: str) -> object:
    """Parse a YAML file, turning parse and IO errors into a one-line ConfigError."""
    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{what} file not found: {path}; check the path") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"{what} {path} is not valid YAML{where}: fix the syntax") from None
