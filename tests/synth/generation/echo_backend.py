"""A fifth backend, as a user would add one: this module (the surface engine.py names)
and one line in synth.generation.backends.BACKENDS, which tests/synth/generation/
test_backends.py adds in a fixture. It echoes a fixed sentence; nothing else in hrsynth
knows it exists."""

from synth import ConfigError
from synth.generation.params import GenerationParams
from tests.scripted import ScriptedChat

LABEL = "Echo"
SERVED = False


class EchoEngine(ScriptedChat):
    def __init__(self, model: str):
        self.model_ref = model

    def continue_prompts(self, prompts, params: GenerationParams, seed: int):
        return [" The request is noted."] * len(prompts), [4] * len(prompts), [1] * len(prompts)


def check(spec, params: GenerationParams) -> None:
    if spec.dtype != "auto":
        raise ConfigError(f"dtype {spec.dtype!r}: backend echo has no number types")


def prepare(spec) -> None:
    if not spec.model.startswith("echo"):
        raise ConfigError(f"model {spec.model!r}: backend echo runs models named echo*")


def build(spec) -> EchoEngine:
    return EchoEngine(spec.model)


def describe(spec) -> str:
    return f"{LABEL} {spec.model}"
