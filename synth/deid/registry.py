"""Built personal-data detectors, registered where `hrsynth deidentify` finds them.

`hrsynth detector build` writes a versioned model folder (weights, tokenizer, the model
card `README.md` and `detector.json`) and registers it: a copy under
`HRSYNTH_DETECTORS` (default: the hrsynth cache's `detectors/`) and `default.json`
naming the one deidentify uses when no `--ner-model` is given. Registering is a rename
of a finished folder, so a half-copied model is never the default.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path

from synth import ConfigError
from synth.io.lock import shared_state_lock
from synth.io.storage import write_json

CARD_FILE = "detector.json"  # the card's data; README.md is its prose


def registry_dir() -> Path:
    """Read at call time, so a test or a job can point it elsewhere."""
    cache = Path(os.environ.get("HRSYNTH_CACHE", Path.home() / ".cache" / "hrsynth"))
    return Path(os.environ.get("HRSYNTH_DETECTORS", cache / "detectors"))


def register(model_dir: str | Path) -> Path:
    """Copy a built detector into the registry and make it the default; returns its path."""
    card = read_card(model_dir)
    root = registry_dir()
    root.mkdir(parents=True, exist_ok=True)
    with shared_state_lock(str(root / "default.json")):  # two builds registering at once
        return _register(model_dir, card, root)


def _register(model_dir, card: dict, root: Path) -> Path:
    target = root / card["version"]
    if not target.is_dir():
        staging = Path(tempfile.mkdtemp(prefix=f".{card['version']}-", dir=root))
        shutil.copytree(model_dir, staging, dirs_exist_ok=True)
        staging.rename(target)
    write_json(str(root / "default.json"), {"version": card["version"], "path": str(target)})
    return target


def default_detector() -> dict | None:
    """{'version', 'path'} of the registered default, or None when none is built."""
    pointer = registry_dir() / "default.json"
    if not pointer.is_file():
        return None
    try:
        entry = json.loads(pointer.read_text())
    except (OSError, ValueError):
        entry = None
    if not (
        isinstance(entry, dict)
        and isinstance(entry.get("path"), str)
        and "\0" not in entry["path"]
        and isinstance(entry.get("version", ""), str)
    ):
        raise ConfigError(
            f"{pointer} is damaged (not the registry's pointer); rerun `hrsynth detector "
            f"build`, or delete it to de-identify with presidio alone"
        )
    if not (Path(entry["path"]) / CARD_FILE).is_file():
        raise ConfigError(
            f"the registered detector {entry.get('version', '?')} is missing: {entry['path']} "
            f"holds no {CARD_FILE} (deleted or moved?); rerun `hrsynth detector build`, give "
            f"--ner-model, or delete {pointer} to use presidio alone"
        )
    return entry


def read_card(model_dir: str | Path) -> dict:
    path = Path(model_dir) / CARD_FILE
    if not path.is_file():
        raise ConfigError(
            f"{model_dir}: not a built hrsynth detector (no {CARD_FILE}); "
            "`hrsynth detector build` makes one"
        )
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        card = None
    if not (isinstance(card, dict) and isinstance(card.get("version"), str) and card["version"]):
        raise ConfigError(
            f"{path} is damaged (not the card `hrsynth detector build` writes); build the "
            "detector again"
        )
    return card
