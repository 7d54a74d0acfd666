"""Which engine runs a model: the registry beside the seam (engine.py), so that neither
the seam nor the rollout knows the list of backends.

A config's `backend` (and generate's or serve's --backend) names one:
- `llama`: llama.cpp in-process (llama_engine.py), GGUF files as they are;
- `ct2`: CTranslate2 in-process (ct2_engine.py), int8 on CPU, float16 on GPU;
- `hf`: Hugging Face transformers in-process (hf_engine.py);
- `openai`: an OpenAI-compatible endpoint (openai_engine.py), which `model: openai:NAME`
  always selects;
- `auto` (the default): the fastest measured where the model runs (AUTO below).

A backend is one module with the surface engine.py describes, and one line in BACKENDS;
every choice below is a lookup in it. Modules are imported when first looked up, so a
config check loads only the engine it names.
"""

import importlib
from functools import partial
from types import ModuleType
from typing import Literal

from synth import ConfigError
from synth.generation.engine import EngineSpec
from synth.generation.params import GenerationParams

BACKENDS = {
    "llama": "synth.generation.llama_engine",
    "ct2": "synth.generation.ct2_engine",
    "hf": "synth.generation.hf_engine",
    "openai": "synth.generation.openai_engine",
}

# The option type of every --backend (its choices on the command line and in the docs).
BackendName = Literal[("auto", *BACKENDS)]

# What `auto` picks, by where the model runs: the fastest engine in the engines
# benchmark (docs/results/speed.md): Hugging Face on a GPU and on a CPU with native
# bf16 matmuls, CTranslate2 int8 on an AVX2-only CPU.
AUTO = {"gpu": "hf", "cpu-bf16": "hf", "cpu-avx2": "ct2"}


def names() -> tuple[str, ...]:
    return ("auto", *BACKENDS)


def module(name: str) -> ModuleType:
    """The backend module registered as `name`."""
    return importlib.import_module(BACKENDS[name])


def cpu_kind() -> str:
    """`cpu-bf16` where torch has native bf16 matmuls (AVX-512 BF16 / AMX), else
    `cpu-avx2`; the key of AUTO for a CPU."""
    import torch

    return "cpu-bf16" if torch.ops.mkldnn._is_mkldnn_bf16_supported() else "cpu-avx2"


def cpu_name() -> str:
    """The CPU's capability as torch sees it (AVX512, AVX2, …), for the start line."""
    import torch

    return torch.backends.cpu.get_cpu_capability()


def _on_gpu(device: str) -> bool:
    if device.startswith(("cuda", "mps")):
        return True
    if device != "auto":
        return False
    import torch

    return torch.cuda.is_available()


def auto_backend(model: str, device: str = "auto", dtype: str = "auto") -> str:
    """AUTO's choice for `model` on `device` here; a choice whose module says it cannot
    run the model here (`runs`) falls back to ct2. A dtype named in the config picks the
    engine that has it (int8 types: ct2; float: hf)."""
    if dtype != "auto":
        return "hf" if dtype in module("hf").DTYPES else "ct2"
    chosen = AUTO["gpu" if _on_gpu(device) else cpu_kind()]
    runs = getattr(module(chosen), "runs", None)
    return "ct2" if runs and not runs(model) else chosen


def _served_by(model: str) -> str | None:
    """The backend a `<backend>:NAME` model names (openai:NAME), if any."""
    prefix = model.split(":", 1)[0]
    return prefix if ":" in model and prefix in BACKENDS else None


def backend_for(
    model: str, backend: str = "auto", device: str = "auto", dtype: str = "auto"
) -> str:
    """The backend that runs `model`: the one named, or for auto AUTO's choice here."""
    if backend not in names():
        raise ConfigError(f"backend {backend!r} unknown; use one of {list(names())}")
    served = _served_by(model)
    if served:
        if backend not in ("auto", served):
            raise ConfigError(
                f"backend {backend} runs a model in-process; model {model} is served: "
                f"drop backend (or set it to {served}), or give a local model"
            )
        return served
    if backend != "auto" and getattr(module(backend), "SERVED", False):
        raise ConfigError(
            f"backend {backend} needs model: {backend}:NAME (the served model's name)"
        )
    return auto_backend(model, device, dtype) if backend == "auto" else backend


def spec_of(gen, threads: int | None = None) -> EngineSpec:
    """The EngineSpec of a config's generator section."""
    return EngineSpec(gen.model, gen.device, gen.dtype, threads, getattr(gen, "engine", None))


def check_backend(
    model: str, backend: str, device: str, dtype: str, params: GenerationParams
) -> None:
    """Config check (no model loaded): the backend, its dtype and the generation
    parameters it can honour, each refusal naming the field (under auto, of the engine
    auto takes here)."""
    chosen = backend_for(model, backend, device, dtype)
    module(chosen).check(EngineSpec(model, device, dtype), params)


def build_engine(
    model: str,
    backend: str = "auto",
    device: str = "auto",
    dtype: str = "auto",
    threads: int | None = None,
    endpoint: dict | None = None,
):
    """The engine itself, here and now (hrsynth serve, evolve, benchmarks)."""
    chosen = backend_for(model, backend, device, dtype)
    return module(chosen).build(EngineSpec(model, device, dtype, threads, endpoint))


def _build(name: str, spec: EngineSpec):
    return module(name).build(spec)


def engine_factory(cfg):
    """A picklable callable that builds the config's engine where it runs (in each actor)."""
    gen = cfg.generator
    return partial(_build, backend_for(gen.model, gen.backend, gen.device, gen.dtype), spec_of(gen))


def prepare_engine(
    model: str, backend: str = "auto", endpoint=None, device: str = "auto", dtype: str = "auto"
) -> None:
    """Resolve a model on the driver, before Ray starts: a local path or hub id that cannot
    be read, a model CTranslate2 cannot convert, a Hugging Face model given to llama.cpp,
    or an endpoint that does not answer, is one line here."""
    chosen = backend_for(model, backend, device, dtype)
    module(chosen).prepare(EngineSpec(model, device, dtype, None, endpoint))


def check_engine(cfg) -> None:
    """prepare_engine for the config's generator."""
    gen = cfg.generator
    prepare_engine(gen.model, gen.backend, gen.engine, gen.device, gen.dtype)


def start_line(cfg, threads: int | None = None) -> str:
    """One line for the start of a run: which engine, on what, and why."""
    gen = cfg.generator
    chosen = module(backend_for(gen.model, gen.backend, gen.device, gen.dtype))
    what = chosen.describe(spec_of(gen, threads))
    if getattr(chosen, "SERVED", False):
        return f"engine: {what}"
    why = " (auto: the fastest measured here)" if gen.backend == "auto" else ""
    where = "GPU" if _on_gpu(gen.device) else f"{threads or '?'} threads, {cpu_name()}"
    return f"engine: {what}, {where}{why}"
