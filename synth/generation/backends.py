"""Which engine runs a model: the registry beside the seam (engine.py), so that neither
the seam nor the rollout knows the list of backends.

A config's `backend` (and generate's or serve's --backend) names one:
- `ct2`: CTranslate2 in-process (ct2_engine.py), int8 on CPU, float16 on GPU;
- `hf`: Hugging Face transformers in-process (hf_engine.py);
- `openai`: an OpenAI-compatible endpoint (openai_engine.py), which `model: openai:NAME`
  always selects;
- `auto` (the default): Hugging Face. On the same 256 tickets CTranslate2 int8 made
  0.90-1.04x its tokens/s on CPU in two runs (benchmarks/results/engines.json; speed_and_engines.md
  says why), and its text is not within Hugging Face's seed spread (engine_parity.json);
  on a GPU it is not measured yet.

Adding a backend is a module and a line in BUILDERS; nothing else changes.
"""

from functools import partial

from synth import ConfigError
from synth.generation.openai_engine import is_endpoint_model
from synth.generation.params import GenerationParams

BACKENDS = ("auto", "ct2", "hf", "openai")
HF_DTYPES = ("auto", "float32", "bfloat16", "float16")


def _hf(model: str, device: str, dtype: str, threads: int | None = None):
    from synth.generation.hf_engine import Generator

    if threads:
        import torch

        torch.set_num_threads(threads)
    return Generator(model, device, dtype)


def _ct2(model: str, device: str, dtype: str, threads: int | None = None):
    from synth.generation.ct2_engine import CT2Engine

    return CT2Engine(model, device, dtype, threads)


BUILDERS = {"hf": _hf, "ct2": _ct2}


def backend_for(model: str, backend: str = "auto") -> str:
    """The backend that runs `model`: the one named, or for auto the fastest measured."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend {backend!r} unknown; use one of {list(BACKENDS)}")
    if is_endpoint_model(model):
        if backend not in ("auto", "openai"):
            raise ConfigError(
                f"backend {backend} runs a model in-process; model {model} is served: "
                "drop backend (or set it to openai), or give a local model"
            )
        return "openai"
    if backend == "openai":
        raise ConfigError("backend openai needs model: openai:NAME (the served model's name)")
    return "hf" if backend == "auto" else backend


def check_backend(
    model: str, backend: str, device: str, dtype: str, params: GenerationParams
) -> None:
    """Config check (no model loaded): the backend, its dtype and the generation
    parameters it can honour, each refusal naming the field."""
    chosen = backend_for(model, backend)
    if chosen == "openai":
        from synth.generation.openai_engine import check_supported

        check_supported(params)
        return
    if chosen == "hf" and dtype not in HF_DTYPES:
        raise ConfigError(
            f"dtype {dtype!r} is CTranslate2's; backend hf takes one of {list(HF_DTYPES)}"
        )
    if chosen == "ct2":
        from synth.generation.ct2_engine import (
            CPU_TYPES,
            CUDA_TYPES,
            check_params,
            pick_device_type,
        )

        if device != "auto":
            pick_device_type(device, dtype)  # names the types this device runs
        elif dtype not in ("auto", *CPU_TYPES, *CUDA_TYPES):
            raise ConfigError(
                f"dtype {dtype!r} is not one backend ct2 runs; use auto, one of "
                f"{[*CPU_TYPES, *CUDA_TYPES]}, or set backend: hf"
            )
        check_params(params)


def build_engine(
    model: str,
    backend: str = "auto",
    device: str = "auto",
    dtype: str = "auto",
    threads: int | None = None,
    endpoint: dict | None = None,
):
    """The engine itself, here and now (hrsynth serve, benchmarks)."""
    chosen = backend_for(model, backend)
    if chosen == "openai":
        from synth.generation.openai_engine import OpenAIEngine

        return OpenAIEngine(model, endpoint)
    return BUILDERS[chosen](model, device, dtype, threads)


def engine_factory(cfg):
    """A picklable callable that builds the config's engine where it runs (in each actor)."""
    chosen = backend_for(cfg.generator.model, cfg.generator.backend)
    if chosen == "openai":
        from synth.generation.openai_engine import OpenAIEngine

        return partial(OpenAIEngine, cfg.generator.model, cfg.generator.engine)
    return partial(BUILDERS[chosen], cfg.generator.model, cfg.generator.device, cfg.generator.dtype)


def check_engine(cfg) -> None:
    """Resolve the config's model on the driver, before Ray starts: a local path or hub id
    that cannot be read, a model CTranslate2 cannot convert (converted here once, into the
    cache the actors load from), or an endpoint that does not answer, is one line here."""
    chosen = backend_for(cfg.generator.model, cfg.generator.backend)
    if chosen == "openai":
        from synth.generation.openai_engine import OpenAIEngine

        OpenAIEngine(cfg.generator.model, cfg.generator.engine).check_reachable()
    elif chosen == "ct2":
        from synth.generation.ct2_engine import converted_model, pick_device_type

        converted_model(
            cfg.generator.model, pick_device_type(cfg.generator.device, cfg.generator.dtype)[2]
        )
    else:
        from synth.generation.hf_engine import resolve_model

        resolve_model(cfg.generator.model)
