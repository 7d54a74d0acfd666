"""The engine seam: all the rollout asks of a model.

An engine continues many prompts in one call with given generation parameters, and
reports the tokens it read and wrote per prompt (the manifest's throughput and a
served engine's bill). It renders a chat opening when a prompt style needs one, so an
engine behind an HTTP endpoint or with a prefix cache can apply its own template.
`synth.generation.hf_engine.Generator` (Hugging Face, in-process) is the one shipped; tests use
scripted engines.
"""

from typing import Protocol

from synth.generation.params import GenerationParams


class Engine(Protocol):
    model_ref: str  # what the manifest and every row record as `model`

    def continue_prompts(
        self, prompts: list[str], params: GenerationParams, seed: int
    ) -> tuple[list[str], list[int], list[int]]:
        """Raw continuations, generated-token counts and prompt-token counts, in order.
        The same prompts, parameters and seed give the same continuations."""
        ...

    def chat_prompt(self, messages: list[dict]) -> str:
        """The model's chat opening for `messages` ({role, content}), ready for the
        assistant's reply to be continued."""
        ...
