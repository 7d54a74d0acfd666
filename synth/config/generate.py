"""The generation job's configuration: sections of dataclasses, every default visible.

Read from YAML (configs/tickets.yaml), then CLI overrides; the resolved config is saved
with every output, flat as the first release wrote it, and its fingerprint decides whether
a rerun may resume an output. The sections and the flat keys: synth/config/sections.py.
"""

import copy
import datetime as dt
import difflib
import hashlib
import json
import re
import sys
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path

from synth import ConfigError, typed
from synth.config.flat import ADDED_LATER, FLAT_KEYS, LEGACY_SECTIONS, nested_key
from synth.config.sections import (
    CORE,
    AuditSettingsBlock,
    GeneratorSettings,
    RunSettings,
    ScaleSettings,
    kind_sections,
    sections,
)
from synth.deid.audit import AuditSettings
from synth.generation.backends import Backend
from synth.generation.engine import EngineSpec
from synth.generation.params import GenerationParams, params_from
from synth.io.files import read_yaml
from synth.kinds import kind, planner_version
from synth.kinds.persona import check_countries
from synth.kinds.tickets.traits import STYLES, weights


def _kinds_default() -> dict:
    return {section: cls() for section, cls in kind_sections().items()}


@dataclass
class GenerateConfig:
    """The sections of synth/config/sections.py; `to_dict` is the flat record. Each
    document kind's own section is in `kinds` ({section: its settings}) and reads as an
    attribute: `cfg.tickets`, `cfg.cvs`."""

    run: RunSettings = field(default_factory=RunSettings)
    generator: GeneratorSettings = field(default_factory=GeneratorSettings)
    scale: ScaleSettings = field(default_factory=ScaleSettings)
    audit: AuditSettingsBlock = field(default_factory=AuditSettingsBlock)
    kinds: dict = field(default_factory=_kinds_default)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "kinds":  # not set yet (a copy, unpickling)
            raise AttributeError(name)
        try:
            return self.kinds[name]
        except KeyError:
            raise AttributeError(f"GenerateConfig has no section {name!r}") from None

    @classmethod
    def of(cls, blocks: dict) -> "GenerateConfig":
        """A config from {section: its settings object}."""
        core = {s: blocks[s] for s in (*CORE, "audit") if s in blocks}
        own = {s: v for s, v in blocks.items() if s not in core}
        return cls(**core, kinds=_kinds_default() | own)

    # Settings that change how fast, not what, a run produces: free to change on resume
    # (the scale section, the device and the endpoint's connection settings).
    RUNTIME_ONLY = (*(f.name for f in fields(ScaleSettings)), "device", "engine")

    def to_dict(self) -> dict:
        """The flat record (the first release's keys and order): what `_run.json` and the
        manifest hold and the fingerprint hashes, so outputs made before sections resume.
        A section the first release did not have (an installed kind's) follows, its
        settings keyed `section.name`."""
        record = {}
        for flat, (section, name) in FLAT_KEYS.items():
            block = getattr(self, section)
            record[flat] = block.given() if name is None else copy.deepcopy(getattr(block, name))
        for section, block in self.kinds.items():
            if section not in LEGACY_SECTIONS:
                for f in fields(block):
                    record[f"{section}.{f.name}"] = copy.deepcopy(getattr(block, f.name))
        return record

    @classmethod
    def from_flat(cls, flat: dict) -> "GenerateConfig":
        """A config from the flat record (a `_run.json`, or CLI-style settings)."""
        table = sections()
        return cls.of({s: table[s](**v) for s, v in _sectioned(flat, "").items()})

    @cached_property
    def engine(self) -> EngineSpec:
        """The engine this config runs on, decided once (backends.resolve) when the config
        is checked and read from here after: by the job's driver check, its start line,
        the actors and the manifest."""
        return Backend.of_generator(self.generator).spec

    def updated(self, **flat) -> "GenerateConfig":
        """A copy with some flat settings changed (`cfg.updated(dp_model=None)`)."""
        return self.from_flat(self.to_dict() | flat)

    def audit_settings(self) -> AuditSettings:
        """The audit block with the audit's defaults filled in (checked by validate)."""
        return AuditSettings(**self.audit.given())

    def generation_params(self) -> GenerationParams:
        """The `generation:` block resolved: its preset, then the values it overrides."""
        gen = dict(self.generator.generation or {})
        return params_from(gen.pop("preset", "default"), gen)

    def input_files(self) -> dict:
        """sha256 of every file in a user's taxonomy_dir, by its path inside the folder.

        The run reads them (titles, sections, templates): an edited file must make a
        finished folder a different run, named in the refusal, not one accepted as done.
        """
        if not self.run.taxonomy_dir or not Path(self.run.taxonomy_dir).is_dir():
            return {}
        folder = Path(self.run.taxonomy_dir)
        return {
            str(f.relative_to(folder)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(folder.rglob("*"))
            if f.is_file()
        }

    def run_record(self) -> dict:
        """What `_run.json` and the manifest keep: the config and the input files' hashes."""
        files = self.input_files()
        record = self.to_dict() | {"planner_version": planner_version(self.run.doc_type)}
        return record | ({"taxonomy_files": files} if files else {})

    def fingerprint(self) -> str:
        content = {
            k: v
            for k, v in self.to_dict().items()
            if k not in self.RUNTIME_ONLY and ADDED_LATER.get(k, object()) != v
        }
        if self.input_files():
            content["taxonomy_files"] = self.input_files()
        # the same seed plans otherwise
        content["planner_version"] = planner_version(self.run.doc_type)
        for key in ("dp_model", "writing_profile"):  # an edited file is another run
            if content.get(key) and Path(content[key]).exists():
                content[key + "_sha256"] = hashlib.sha256(
                    Path(content[key]).read_bytes()
                ).hexdigest()
                content[key] = Path(content[key]).name
        return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


DEVICES = re.compile(r"auto|cpu|cuda(:\d+)?|mps")
DTYPES = ("auto", "float32", "bfloat16", "float16", "int8", "int8_float32", "int8_float16")


def validate(cfg: GenerateConfig) -> GenerateConfig:
    run, gen, scale = cfg.run, cfg.generator, cfg.scale
    for section in sections():
        typed.check_object(getattr(cfg, section), f"{section}.")
    if not DEVICES.fullmatch(gen.device):
        raise ConfigError(f"device {gen.device!r} unknown; use auto, cpu, cuda, cuda:N or mps")
    if gen.dtype not in DTYPES:
        raise ConfigError(f"dtype {gen.dtype!r} unknown; use one of {list(DTYPES)}")
    if scale.min_actors is not None and not 1 <= scale.min_actors <= scale.num_actors:
        raise ConfigError(
            f"min_actors must be in [1, num_actors={scale.num_actors}], got {scale.min_actors}"
        )
    weights(gen.prompt_style, "prompt_style", STYLES)
    for settings in cfg.kinds.values():  # every kind's section, whichever kind runs
        settings.check()
    cfg.audit_settings()  # raises on an unknown policy or type
    kind(run.doc_type).check_config(cfg)  # the kind's own rules (CVs: plain or chat, …)
    params = cfg.generation_params()  # raises on unknown parameters and wrong types
    check_endpoint(gen.model, gen.engine)
    Backend(cfg.engine).check(params)
    if run.reference_date is None:
        run.reference_date = dt.date.today().isoformat()
    try:
        dt.date.fromisoformat(run.reference_date)
    except (TypeError, ValueError):
        raise ConfigError(
            f"reference_date {run.reference_date!r} is not a date written YYYY-MM-DD"
        ) from None
    check_countries(run.countries)  # here, not in the actors after Ray started
    return cfg


def check_endpoint(model: str, engine: dict) -> None:
    """The `engine:` block is for endpoint models only, and typed."""
    from synth.generation.openai_engine import Endpoint, is_endpoint_model

    if not is_endpoint_model(model):
        if engine:
            raise ConfigError("engine: applies to model openai:NAME (a served endpoint) only")
        return
    if not isinstance(engine, dict):
        raise ConfigError("engine must be a mapping (base_url, api_key_env, …)")
    typed.reject_unknown(engine, Endpoint, "engine: ")
    typed.check(Endpoint, engine, "engine.")
    if not model.removeprefix("openai:"):
        raise ConfigError("model openai:NAME needs the served model's name after 'openai:'")


# What JSON Schema cannot say (issue 72): YAML's .nan and .inf are numbers to a schema
# validator, and no keyword refuses them.
FINITE_NOTE = (
    "Every number must be finite: `hrsynth generate` refuses .nan and .inf (YAML). This "
    "schema refuses .nan too (each number carries a `not` guard only NaN matches) and .inf "
    "where a setting has a bound; rules between two settings are the command's alone."
)

# No real number is both <= 0 and >= 1; NaN passes every comparison, so it alone
# matches this schema, and `not` refuses it (JSON Schema has no finiteness keyword).
NOT_NAN = {"type": "number", "maximum": 0, "minimum": 1}


def _refusing_nan(node):
    """`node` with the NaN guard on every schema that admits a number."""
    if isinstance(node, list):
        return [_refusing_nan(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: _refusing_nan(v) for k, v in node.items()}
    kinds = node.get("type")
    if kinds == "number" or (isinstance(kinds, list) and "number" in kinds):
        node["not"] = NOT_NAN
    return node


def json_schema() -> dict:
    """The JSON schema of a generation config file in sections (docs/configuration.md)."""
    properties = {name: typed.json_schema(cls) for name, cls in sections().items()}
    generation = properties["generator"]["properties"]["generation"]
    properties["generator"]["properties"]["generation"] = _generation_schema(generation)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hrsynth generation config",
        "description": FINITE_NOTE,
        "type": "object",
        "properties": _refusing_nan(properties),
        "additionalProperties": False,
    }


def _generation_schema(loose: dict) -> dict:
    """`generator.generation` as load_config reads it (params_from): a preset and the
    decoding parameters it overrides, each with its type and range (GenerationParams),
    no other key. The section's own class holds it as a mapping, so its schema is made
    here; defaults come from the preset, so none is given per parameter."""
    from synth.generation.params import PRESETS

    schema = typed.json_schema(GenerationParams)
    for parameter in schema["properties"].values():
        parameter.pop("default", None)
    schema["properties"] = {
        "preset": {"enum": list(PRESETS), "title": "preset", "default": "default"},
        **schema["properties"],
    }
    schema.pop("required", None)
    schema.pop("title", None)
    return {**schema, "description": loose.get("description"), "default": loose.get("default")}


def load_config(path: str | None, overrides: dict | None = None) -> GenerateConfig:
    """A config file (sections, or the first release's flat keys with a one-line notice),
    then the CLI's settings (flat names, None: not given), checked."""
    doc = read_yaml(path, "config") if path else {}
    if doc is None:
        doc = {}
    if not isinstance(doc, dict):
        raise ConfigError(f"config {path}: expected a mapping of settings")
    where = f"config {path}: "
    flat = [k for k in doc if k not in sections() and k in FLAT_KEYS]
    if flat:
        moves = ", ".join(f"{k} -> {nested_key(k)}" for k in flat[:3])
        more = f" and {len(flat) - 3} more" if len(flat) > 3 else ""
        print(
            f"{where}flat keys are deprecated; nest them ({moves}{more}; docs/configuration.md)",
            file=sys.stderr,
        )
    blocks = _sectioned(doc, where)
    for key, value in (overrides or {}).items():
        if value is not None:
            section, name = FLAT_KEYS[key]
            blocks[section] = value if name is None else blocks[section] | {name: value}
    run = blocks["run"]
    if isinstance(run.get("reference_date"), dt.date):  # YAML reads 2026-11-22 as a date
        run["reference_date"] = run["reference_date"].isoformat()
    return validate(GenerateConfig.of({s: _section(s, v, where) for s, v in blocks.items()}))


def file_settings(path: str) -> dict:
    """The flat settings a config file gives (nested or flat), unchecked and without the
    notice: what a job copies or asks of the file (doc_type, taxonomy_dir)."""
    doc = read_yaml(path, "config") or {}
    if not isinstance(doc, dict):
        raise ConfigError(f"config {path}: expected a mapping of settings")
    blocks = _sectioned(doc, f"config {path}: ")
    flat = {}
    for key, (section, name) in FLAT_KEYS.items():
        if name is None and blocks[section]:
            flat[key] = blocks[section]
        elif name is not None and name in blocks[section]:
            flat[key] = blocks[section][name]
    return flat


def nested(flat: dict) -> dict:
    """Flat settings as a nested config file holds them (sections in order, empty left out)."""
    blocks = _sectioned(flat, "")
    return {s: blocks[s] for s in sections() if blocks[s]}


def _sectioned(doc: dict, where: str) -> dict[str, dict]:
    """{section: its settings} from a mapping of sections and/or flat keys; a setting
    given twice (flat and nested) or a key that is neither is an error naming it."""
    table = sections()
    doc = _dotted_nested(doc, table)
    unknown = sorted(k for k in doc if k not in table and k not in FLAT_KEYS)
    if unknown:
        raise ConfigError(
            f"{where}unknown setting(s) {unknown}{_did_you_mean(unknown[0])}; a config "
            f"has the sections {', '.join(table)}"
        )
    blocks = {s: {} for s in table}
    for key, value in doc.items():
        if key in table:
            if value is None:
                continue
            if not isinstance(value, dict):
                raise ConfigError(f"{where}{key}: must be a mapping of settings, got {value!r}")
            given = value
            section = key
        else:
            section, name = FLAT_KEYS[key]
            given = (value or {}) if name is None else {name: value}
            if not isinstance(given, dict):
                raise ConfigError(f"{where}{key} must be a mapping (policy, types)")
        twice = set(given) & set(blocks[section])
        if twice:
            name = min(twice)
            raise ConfigError(f"{where}{section}.{name} is given twice (flat and nested)")
        blocks[section] |= given
    return blocks


def _dotted_nested(doc: dict, table: dict) -> dict:
    """A record's `section.name` keys (an installed kind's settings) as sections."""
    out: dict = {}
    for key, value in doc.items():
        section, _, name = key.partition(".")
        if name and section in table and section not in LEGACY_SECTIONS:
            out.setdefault(section, {})[name] = value
        else:
            out[key] = value
    return out


def _did_you_mean(key: str) -> str:
    close = difflib.get_close_matches(key, [*sections(), *FLAT_KEYS], n=1)
    if not close:
        return ""
    return f" (did you mean {nested_key(close[0]) if close[0] in FLAT_KEYS else close[0]}?)"


def _section(name: str, settings: dict, where: str):
    cls = sections()[name]
    typed.reject_unknown(settings, cls, f"{where}{name}: ")
    return cls(**settings)
