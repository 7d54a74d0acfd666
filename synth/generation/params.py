"""Generation parameters and their named presets.

`thesis` is the Ticket Generator thesis's setting (GPT-J-6B). `default` is the setting
chosen for the embedded SmolLM2-135M by measurement (benchmarks/text/prompt_styles.py, see
benchmarks/results/speed_and_engines.md): a 135M model drifts off topic at temperature 1.0.
"""

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Annotated

from pydantic import Field

from synth import ConfigError
from synth.typed import Count, MinP, Penalty, Positive, Temperature, TopP, check

# The most new tokens a slot may ask for: beyond any model's useful slot, and a bound on
# the cache a row holds (a slot of 100,000 tokens was accepted, issue 64).
MAX_NEW_TOKENS = 4096


def request(neutral) -> dict:
    """A field a client of `hrsynth serve` may send, and what a request that leaves it out
    means (the OpenAI API's neutral value, not hrsynth's default): the server reads its
    fields from here (`request_fields`), so a parameter added with this mark reaches
    clients with no edit to the server."""
    return {"request": neutral}


@dataclass
class GenerationParams:
    max_new_tokens: Annotated[int, Field(ge=1, le=MAX_NEW_TOKENS)] = 40
    min_new_tokens: Count = 0
    do_sample: bool = True
    # > 0 when sampling (checked in params_from, which names the fix)
    temperature: Temperature = field(default=0.5, metadata=request(1.0))
    top_k: Count = field(default=50, metadata=request(0))  # 0: the whole vocabulary
    top_p: TopP = field(default=0.85, metadata=request(1.0))
    # Drop a candidate less likely than min_p times the likeliest one (0: off).
    min_p: MinP = field(default=0.0, metadata=request(0.0))
    repetition_penalty: Penalty = field(default=1.2, metadata=request(1.0))
    no_repeat_ngram_size: Count = 0
    num_beams: Positive = 1
    bad_words: list[str] = field(default_factory=list)
    force_words: list[str] = field(default_factory=list)
    # Stop a slot after this many complete sentences (or at a blank line / end of text).
    sentences_per_slot: Positive = 2
    # ... or after this many paragraphs (a template slot is one paragraph).
    paragraphs_per_slot: Positive = 1
    # A slot that comes back empty after trimming is generated again, at most this often.
    max_retries: Annotated[int, Field(ge=0, le=100)] = 2
    # A slot of a document drawn long (a CV of 1,000 words) may take this many times the
    # tokens and sentences of a regular one (1: long slots as regular).
    long_slot_factor: Annotated[int, Field(ge=1, le=100)] = 3

    def to_dict(self) -> dict:
        return asdict(self)


def request_fields() -> dict:
    """{field: its neutral value} for each GenerationParams field a request may set."""
    return {
        f.name: f.metadata["request"] for f in fields(GenerationParams) if "request" in f.metadata
    }


# The decoding features a backend may lack, each at the value that switches it off. A
# backend module declares the ones it honours (SAMPLING); any other set otherwise is
# refused in one line, in one place (synth.generation.backends.Backend.check).
OPTIONAL = {
    "min_new_tokens": 0,
    "min_p": 0.0,
    "no_repeat_ngram_size": 0,
    "num_beams": 1,
    "bad_words": [],
    "force_words": [],
}


def refuse_unsupported(params: GenerationParams, honoured, backend: str, able=()) -> None:
    """One line for the first optional feature `params` sets that `backend`, honouring
    `honoured`, lacks; `able`: the backends that have it."""
    for name, off in OPTIONAL.items():
        if getattr(params, name) != off and name not in honoured:
            raise ConfigError(
                f"generation.{name} is not supported by backend {backend} (it honours "
                f"{', '.join(sorted(honoured)) or 'none of the optional ones'}); drop it, or "
                f"use backend {' or '.join(n for n in able if n != backend) or 'hf'}"
            )


PRESETS = {
    "thesis": {
        "max_new_tokens": 50,
        "top_k": 50,
        "top_p": 0.85,
        "repetition_penalty": 1.2,
        "temperature": 1.0,
        "do_sample": True,
        "sentences_per_slot": 50,
    },
    "default": {},
}


def free_params(params: GenerationParams) -> GenerationParams:
    """A free-form ticket is one slot holding the whole email: three slots' worth of
    tokens, several paragraphs (greeting, body, sign-off)."""
    return replace(
        params,
        max_new_tokens=3 * params.max_new_tokens,
        sentences_per_slot=max(params.sentences_per_slot, 12),
        paragraphs_per_slot=5,
    )


def long_params(params: GenerationParams) -> GenerationParams:
    """A slot of a document with a long target length: up to `long_slot_factor` times the
    sentences and tokens of a regular slot."""
    return replace(
        params,
        max_new_tokens=params.long_slot_factor * params.max_new_tokens,
        sentences_per_slot=params.long_slot_factor * params.sentences_per_slot,
    )


def params_from(preset: str = "default", overrides: dict | None = None) -> GenerationParams:
    if preset not in PRESETS:
        raise ConfigError(f"generation.preset '{preset}' unknown; use one of {list(PRESETS)}")
    values = {**PRESETS[preset], **(overrides or {})}
    known = {f.name for f in fields(GenerationParams)}
    unknown = set(values) - known
    if unknown:
        raise ConfigError(
            f"generation: unknown parameter(s) {sorted(unknown)}; known: {sorted(known)}"
        )
    check(GenerationParams, values, "generation.")
    p = GenerationParams(**values)
    if p.min_new_tokens > p.max_new_tokens:
        raise ConfigError(
            f"generation.min_new_tokens ({p.min_new_tokens}) must be <= max_new_tokens "
            f"({p.max_new_tokens})"
        )
    if p.do_sample and not p.temperature > 0:
        raise ConfigError(
            "generation.temperature must be > 0 when do_sample is true; for greedy decoding "
            "set do_sample: false"
        )
    if p.force_words and p.num_beams < 2:
        raise ConfigError(
            "generation.force_words needs num_beams ≥ 2 and do_sample false "
            "(constrained beam search)"
        )
    return p
