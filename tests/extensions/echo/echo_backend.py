"""A fifth backend, as a user adds one (docs/extending.md): this module, with the surface
synth/generation/engine.py names, and its entry point in pyproject.toml beside it. It
echoes a fixed sentence; nothing in hrsynth knows it exists. tests/test_extensions.py
installs it and runs it through `hrsynth generate`; tests/synth/generation/
test_backends.py registers the module in BACKENDS instead, as a line in the tree would."""

from synth import ConfigError
from synth.generation.engine import EngineBase
from synth.generation.params import GenerationParams

LABEL = "Echo"
SERVED = False


class EchoEngine(EngineBase):  # model_ref: EngineBase's, the model the run names
    def chat_prompt(self, messages: list[dict]) -> str:
        return "".join(f"<{m['role']}>{m['content']}\n" for m in messages) + "<assistant>"

    def continue_prompts(self, prompts, params: GenerationParams, seed: int):
        return [" The request is noted."] * len(prompts), [4] * len(prompts), [1] * len(prompts)


def check(spec, params: GenerationParams) -> None:
    if spec.dtype != "auto":
        raise ConfigError(f"dtype {spec.dtype!r}: backend echo has no number types")


def prepare(spec) -> None:
    if not spec.model.startswith("echo"):
        raise ConfigError(f"model {spec.model!r}: backend echo runs models named echo*")


def build(spec) -> EchoEngine:
    return EchoEngine()


def describe(spec) -> str:
    return f"{LABEL} {spec.model}"
