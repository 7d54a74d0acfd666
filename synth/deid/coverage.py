"""Which personal-data types a set of detectors finds, measured, not declared.

A detector's recognizers are named after types (Presidio's HR deny lists after HEALTH
and LIFE_EVENT), but a name is a claim: `--detectors presidio` was said to look for
both and let health conditions and life events through verbatim (issue 72). What
`deidentify` states (its first line, the manifest's `types_not_looked_for` and
`types_found_in_part`) is what the detectors find on the planted examples of
synth/data/deid/coverage_examples.yaml: a type is found when every example's value is
replaced, found in part when some are, not found when none is.

Measuring loads the detectors once (seconds); the result is kept in the hrsynth cache,
keyed by the detectors (names, the built detector's version) and the examples, so a
rerun reads it. The llm detector is not measured here: it is asked for every type, and
what it finds depends on the model behind it.
"""

import hashlib
import json
import os
from pathlib import Path

from synth import DATA_DIR, ConfigError
from synth.io.files import read_yaml

EXAMPLES_FILE = DATA_DIR / "deid" / "coverage_examples.yaml"


def examples() -> dict[str, list[dict]]:
    """{type: [{text, value}]}, each value checked to stand in its text."""
    doc = read_yaml(EXAMPLES_FILE, "coverage examples")
    for kind, items in doc.items():
        for item in items:
            if item["value"] not in item["text"]:
                raise ConfigError(f"{EXAMPLES_FILE}: {kind}: {item['value']!r} is not in its text")
    return doc


def measure(detectors: list) -> dict[str, float]:
    """{type: share of its examples whose value the detectors' spans cover whole}."""
    from synth.deid.analyzer.analyze import detect

    planted = [(kind, item) for kind, items in examples().items() for item in items]
    try:
        found = detect([item["text"] for _, item in planted], detectors)
    except ConfigError as e:  # a detector's wrong answer, met here first, on the driver
        raise ConfigError(
            f"{e} (met on the {len(planted)} planted examples deidentify measures the "
            "detectors on, before any document is read)"
        ) from None
    hits: dict[str, list[bool]] = {}
    for (kind, item), spans in zip(planted, found):
        start = item["text"].index(item["value"])
        wanted = set(range(start, start + len(item["value"])))
        covered = {i for s in spans for i in range(s.start, s.end)}
        hits.setdefault(kind, []).append(wanted <= covered)
    return {kind: round(sum(h) / len(h), 3) for kind, h in hits.items()}


def coverage(names: list[str], ner_model: str | None = None, clause_gate: str = "kind") -> dict:
    """{'measured': bool, 'shares': {type: share}, 'not_found': [...], 'in_part': [...]}
    for the named detectors (read from the cache when measured before)."""
    if "llm" in names:
        return {"measured": False, "shares": {}, "not_found": [], "in_part": []}
    path = _cache_path(names, ner_model, clause_gate)
    try:
        shares = json.loads(path.read_text())
    except (OSError, ValueError):
        from synth.deid.analyzer.detectors import make_detectors

        shares = measure(make_detectors(names, ner_model, None, clause_gate))
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".tmp{os.getpid()}")
        temporary.write_text(json.dumps(shares, sort_keys=True))
        temporary.replace(path)
    return summary(shares)


def summary(shares: dict[str, float]) -> dict:
    from synth.deid.types import personal_types

    order = [t for t in personal_types().names if t in shares]
    return {
        "measured": True,
        "shares": {t: shares[t] for t in order},
        "not_found": [t for t in order if shares[t] == 0],
        "in_part": [t for t in order if 0 < shares[t] < 1],
    }


def _cache_path(names: list[str], ner_model: str | None, clause_gate: str) -> Path:
    """Keyed by the detectors, the built one's card, the code and data that decide what
    they find (synth/deid, its subpackages and its data files), and each installed
    detector plugin's code and version: another release, or a plugin's changed code,
    measures again (issue 84: a plugin's code changed and the cache still said
    OCCUPATION 1.0)."""
    model = None
    if ner_model:
        card = Path(ner_model, "detector.json")
        model = hashlib.sha256(card.read_bytes()).hexdigest() if card.is_file() else ner_model
    code = hashlib.sha256()
    here = Path(__file__).parent
    for file in sorted([*here.rglob("*.py"), *(DATA_DIR / "deid").glob("*.yaml")]):
        code.update(file.read_bytes())
    plugins = plugin_code("detectors")
    identity = json.dumps([names, model, clause_gate, code.hexdigest(), plugins], sort_keys=True)
    digest = hashlib.sha256(identity.encode()).hexdigest()[:24]
    cache = Path(os.environ.get("HRSYNTH_CACHE", Path.home() / ".cache" / "hrsynth"))
    return cache / "coverage" / f"{digest}.json"


def plugin_code(group: str) -> dict[str, list]:
    """{name: [target, its distribution's version, a hash of its package's files]} for
    each installed plugin of `group`, found without importing it."""
    import importlib.util
    from importlib.metadata import entry_points

    found = {}
    for point in entry_points(group=f"hrsynth.{group}"):
        top = point.value.split(":")[0].split(".")[0]
        files = hashlib.sha256()
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            roots = list(spec.submodule_search_locations or [])
            paths = [p for r in roots for p in Path(r).rglob("*") if p.is_file()]
            if not roots and spec.origin and Path(spec.origin).is_file():
                paths = [Path(spec.origin)]
            for path in sorted(p for p in paths if "__pycache__" not in p.parts):
                files.update(str(path.name).encode() + path.read_bytes())
        version = point.dist.version if point.dist is not None else None
        found[point.name] = [point.value, version, files.hexdigest()]
    return found
