"""The engine seam: all the rollout asks of a model.

An engine continues many prompts in one call with given generation parameters, and
reports the tokens it read and wrote per prompt (the manifest's throughput and a
served engine's bill). It renders a chat opening when a prompt style needs one, so an
engine behind an HTTP endpoint or with a prefix cache can apply its own template.
Four are shipped, one module each, listed in synth.generation.backends (which picks one
for a config): llama.cpp in-process (llama_engine), CTranslate2 in-process (ct2_engine),
Hugging Face in-process (hf_engine) and any OpenAI-compatible endpoint (openai_engine,
for `model: openai:NAME`); tests also use scripted engines.

Each backend module ends with the same small surface, which is all the registry calls:
`LABEL`, `SERVED` (True where the module runs models named `<backend>:NAME` served
elsewhere, False for a model loaded in-process), `check(spec, params)` at config time (no
model loaded), `prepare(spec)` on the driver before Ray starts, `build(spec)` where the
engine runs, and `describe(spec)` for the start line. Each takes the EngineSpec that
synth.generation.backends.resolve decided once.
"""

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from synth import ConfigError
from synth.generation.params import GenerationParams


@dataclass(frozen=True)
class EngineSpec:
    """The engine a run uses, decided once (synth.generation.backends.resolve, on the
    driver before Ray starts) and carried everywhere after: the backend chosen, the
    config's generator fields, a thread count where the caller fixes one. Picklable, so
    an actor builds from it."""

    model: str
    device: str = "auto"
    dtype: str = "auto"
    threads: int | None = None
    endpoint: object = None  # the `engine:` block of a served model (openai_engine.Endpoint)
    backend: str | None = None  # the backend chosen (None: a backend module's own tests)
    auto: bool = False  # chosen by `auto` (the fastest measured here), not named


class FailedPrompt(str):
    """What an engine returns for a prompt it could not continue (an endpoint that kept
    failing after its own retries): empty text that carries the reason, which the rollout
    records as that row's error instead of retrying it again."""

    reason: str

    def __new__(cls, reason: str):
        failed = super().__new__(cls, "")
        failed.reason = reason
        return failed


class Engine(Protocol):
    model_ref: str  # what the manifest and every row record as `model`
    max_context: int | None  # tokens the model reads at most (None: not known, not checked)
    continuous: bool  # calls may overlap: the server hands a batch over while others decode
    slots: int  # rows decoded at once across calls when continuous

    def continue_prompts(
        self, prompts: list[str], params: GenerationParams, seed: int
    ) -> tuple[list[str], list[int], list[int]]:
        """Raw continuations, generated-token counts and prompt-token counts, in order.
        The same prompts, parameters and seed give the same continuations. A prompt the
        engine could not continue comes back as a FailedPrompt."""
        ...

    def chat_prompt(self, messages: list[dict]) -> str:
        """The model's chat opening for `messages` ({role, content}), ready for the
        assistant's reply to be continued."""
        ...

    def prompt_tokens(self, text: str) -> int | None:
        """Tokens `text` is as a prompt (None: the engine cannot count them here)."""
        ...

    def fix_slots(self, slots: int) -> None:
        """Decode at most `slots` rows at once across calls (a continuous engine; the
        server's --max-batch)."""
        ...


def checked_continuations(engine, prompts: list[str], result) -> tuple[list, list, list]:
    """What `continue_prompts` returned, checked where it enters: three lists (texts,
    generated-token counts, prompt-token counts), one entry per prompt, texts strings and
    counts whole numbers. A plugin returning one continuation fewer than asked hung
    `generate` (its rollout waited forever for the missing slot); it is one line naming
    the backend instead."""
    made = engine.__class__  # a plugin's engine seen through the seam: its own class
    name = f"{made.__module__}.{made.__name__}"
    fix = (
        "continue_prompts must return (texts, generated-token counts, prompt-token "
        "counts): three lists with one entry per prompt (docs/extending.md)"
    )
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        raise ConfigError(f"backend {name} returned {type(result).__name__}; {fix}")
    texts, generated, read = result
    for what, column in (
        ("texts", texts),
        ("generated counts", generated),
        ("prompt counts", read),
    ):
        if not isinstance(column, (list, tuple)):
            raise ConfigError(
                f"backend {name} returned {type(column).__name__} for its {what}, not a list; {fix}"
            )
        if len(column) != len(prompts):
            raise ConfigError(
                f"backend {name} returned {len(column)} {what} for {len(prompts)} prompts; {fix}"
            )
    if not all(isinstance(t, str) for t in texts):
        raise ConfigError(f"backend {name} returned a continuation that is not a string; {fix}")
    counts = [*generated, *read]
    if not all(
        isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 0 for n in counts
    ):
        raise ConfigError(
            f"backend {name} returned a token count that is not a whole number; {fix}"
        )
    return list(texts), list(generated), list(read)


class EngineBase:
    """What an engine that declares no more has: the Engine protocol's capabilities at
    their plain values (no known context, one call at a time), for engines to inherit."""

    model_ref: str | None = None  # None: the model the run names (Backend.build sets it)
    max_context: int | None = None
    # Prompt tokens the engine computed afresh so far, not read from a cache it kept
    # (None: it cannot tell). Beside the rows' prompt_tokens it shows what a KV cache
    # saved; the shard footers and the manifest carry both (tokens_prefilled).
    prefilled_tokens: int | None = None
    continuous: bool = False
    slots: int = 1

    def prompt_tokens(self, text: str) -> int | None:
        return None

    def fix_slots(self, slots: int) -> None:
        return None


@dataclass(frozen=True)
class SlotRequest:
    """One continuation a streaming engine writes: the prompt, and the limits of its slot
    (what differs between a regular, a long and a free-form slot). `seed` names the
    request's own draws (its document, slot and attempt; None: the call's seed and its
    place) for an engine whose text does not depend on the batch; `continues`: it
    follows the request whose result returned it, and its prompt begins with that one's
    prompt and text, so an engine may continue it in the same row."""

    key: object
    prompt: str
    max_new_tokens: int
    sentences: int
    paragraphs: int
    seed: int | None = None
    continues: bool = False


# on_result(key, raw text, generated tokens, prompt tokens) -> the requests it leads to
OnResult = Callable[[object, str, int, int], list[SlotRequest]]


@runtime_checkable
class StreamingEngine(Engine, Protocol):
    """An engine that batches continuously: a finished row's place goes at once to a
    waiting request, so the rollout hands it each document's next slot as the last one
    comes back instead of one call per slot (synth.generation.rollout)."""

    def continue_stream(
        self, first: list[SlotRequest], params: GenerationParams, on_result: OnResult, seed: int
    ) -> None:
        """Continue `first` and every request `on_result` returns, until none is left;
        `params` gives the sampling (every request shares it), each request its limits.
        The same requests, parameters and seed give the same continuations on the same
        device."""
        ...
