"""The engine seam: all the rollout asks of a model.

An engine continues many prompts in one call with given generation parameters, and
reports the tokens it read and wrote per prompt (the manifest's throughput and a
served engine's bill). It renders a chat opening when a prompt style needs one, so an
engine behind an HTTP endpoint or with a prefix cache can apply its own template.
Two are shipped: `synth.generation.hf_engine.Generator` (Hugging Face, in-process) and
`synth.generation.openai_engine.OpenAIEngine` (any OpenAI-compatible endpoint, for
`model: openai:NAME`); tests use scripted engines.
"""

from functools import partial
from typing import Protocol

from synth.generation.params import GenerationParams


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


def engine_factory(cfg):
    """A picklable callable that builds the config's engine where it runs (in each actor)."""
    from synth.generation.openai_engine import OpenAIEngine, is_endpoint_model

    if is_endpoint_model(cfg.model):
        return partial(OpenAIEngine, cfg.model, cfg.engine)
    from synth.generation.hf_engine import Generator

    return partial(Generator, cfg.model, cfg.device, cfg.dtype)


def check_engine(cfg) -> None:
    """Resolve the config's model on the driver, before Ray starts: a local path or hub id
    that cannot be read, or an endpoint that does not answer, is one line here."""
    from synth.generation.openai_engine import OpenAIEngine, is_endpoint_model

    if is_endpoint_model(cfg.model):
        OpenAIEngine(cfg.model, cfg.engine).check_reachable()
        return
    from synth.generation.hf_engine import resolve_model

    resolve_model(cfg.model)
