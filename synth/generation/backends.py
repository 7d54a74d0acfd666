"""Which engine runs a model: the registry beside the seam (engine.py), so that neither
the seam nor the rollout knows the list of backends.

A config's `backend` (and generate's or serve's --backend) names one:
- `llama`: llama.cpp in-process (llama_engine.py), GGUF files as they are;
- `ct2`: CTranslate2 in-process (ct2_engine.py), int8 on CPU, float16 on GPU;
- `hf`: Hugging Face transformers in-process (hf_engine.py);
- `openai`: an OpenAI-compatible endpoint (openai_engine.py), which `model: openai:NAME`
  always selects;
- `auto` (the default): the fastest measured where the model runs (AUTO below).

Each backend is one module and one entry in BACKENDS: how it is built, what it checks
at config time (no model loaded) and what it resolves on the driver before Ray starts.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from synth import ConfigError
from synth.generation.openai_engine import is_endpoint_model
from synth.generation.params import GenerationParams

HF_DTYPES = ("auto", "float32", "bfloat16", "float16")

# What `auto` picks, by where the model runs: measured with benchmarks/engines.py on the
# same 256 planned tickets, tickets/s (benchmarks/results/engines.json,
# speed_and_engines.md):
# - CPU with AVX-512 BF16 (2026-11-25): Hugging Face in bf16 (2.12 tickets/s; CTranslate2
#   int8 2.56, not within HF's seed spread in engine_parity.json; llama.cpp not measured
#   on such a CPU yet);
# - AVX2-only CPU (AMD EPYC, 2026-11-26): CTranslate2 int8 (2.83 tickets/s; llama.cpp
#   Q4_1 1.64, HF float32 1.1): the engine with the fastest kernels here is not llama.cpp;
# - GPU: Hugging Face (bf16 or float16).
AUTO = {"gpu": "hf", "cpu-bf16": "hf", "cpu-avx2": "ct2"}


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


def _is_gguf(model: str) -> bool:
    from synth.generation.hf_engine import resolve_model

    return resolve_model(model).gguf_file is not None


def _llama_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("xllamacpp") is not None


def auto_backend(model: str, device: str = "auto", dtype: str = "auto") -> str:
    """AUTO's choice for `model` on `device` here; a llama.cpp choice falls back to ct2
    for a model it cannot run (not GGUF) or when xllamacpp is not installed. A dtype named
    in the config picks the engine that has it (int8 types: ct2; float: hf)."""
    if dtype != "auto":
        return "hf" if dtype in HF_DTYPES else "ct2"
    where = "gpu" if _on_gpu(device) else cpu_kind()
    chosen = AUTO[where]
    if chosen == "llama" and not (_llama_installed() and _is_gguf(model)):
        return "ct2"
    return chosen


# --- one entry per backend ------------------------------------------------------------


def _hf_build(model: str, device: str, dtype: str, threads: int | None = None):
    from synth.generation.hf_engine import HFEngine

    if threads:
        import torch

        torch.set_num_threads(threads)
    return HFEngine(model, device, dtype)


def _hf_check(model: str, device: str, dtype: str, params: GenerationParams) -> None:
    if dtype not in HF_DTYPES:
        raise ConfigError(
            f"dtype {dtype!r} is CTranslate2's; backend hf takes one of {list(HF_DTYPES)}"
        )


def _hf_resolve(model: str, device: str, dtype: str) -> None:
    from synth.generation.hf_engine import resolve_model

    resolve_model(model)


def _ct2_build(model: str, device: str, dtype: str, threads: int | None = None):
    from synth.generation.ct2_engine import CT2Engine

    return CT2Engine(model, device, dtype, threads)


def _ct2_check(model: str, device: str, dtype: str, params: GenerationParams) -> None:
    from synth.generation.ct2_engine import CPU_TYPES, CUDA_TYPES, check_params, pick_device_type

    if device != "auto":
        pick_device_type(device, dtype)  # names the types this device runs
    elif dtype not in ("auto", *CPU_TYPES, *CUDA_TYPES):
        raise ConfigError(
            f"dtype {dtype!r} is not one backend ct2 runs; use auto, one of "
            f"{[*CPU_TYPES, *CUDA_TYPES]}, or set backend: hf"
        )
    check_params(params)


def _ct2_resolve(model: str, device: str, dtype: str) -> None:
    """Converted here once, into the cache the actors load from."""
    from synth.generation.ct2_engine import converted_model, pick_device_type

    converted_model(model, pick_device_type(device, dtype)[2])


def _llama_build(model: str, device: str, dtype: str, threads: int | None = None):
    from synth.generation.llama_engine import LlamaEngine

    return LlamaEngine(model, device, dtype, threads)


def _llama_check(model: str, device: str, dtype: str, params: GenerationParams) -> None:
    from synth.generation.llama_engine import check_params

    check_params(params, dtype)


def _llama_resolve(model: str, device: str, dtype: str) -> None:
    from synth.generation.llama_engine import _xllamacpp, gguf_path

    _xllamacpp()
    gguf_path(model)


@dataclass(frozen=True)
class Backend:
    build: Callable  # (model, device, dtype, threads) -> engine
    check: Callable  # (model, device, dtype, params): config check, no model loaded
    resolve: Callable  # (model, device, dtype): on the driver, before Ray starts
    label: str  # for the start line


BACKENDS = {
    "llama": Backend(_llama_build, _llama_check, _llama_resolve, "llama.cpp"),
    "ct2": Backend(_ct2_build, _ct2_check, _ct2_resolve, "CTranslate2"),
    "hf": Backend(_hf_build, _hf_check, _hf_resolve, "Hugging Face"),
}
NAMES = ("auto", *BACKENDS, "openai")


def backend_for(
    model: str, backend: str = "auto", device: str = "auto", dtype: str = "auto"
) -> str:
    """The backend that runs `model`: the one named, or for auto AUTO's choice here."""
    if backend not in NAMES:
        raise ConfigError(f"backend {backend!r} unknown; use one of {list(NAMES)}")
    if is_endpoint_model(model):
        if backend not in ("auto", "openai"):
            raise ConfigError(
                f"backend {backend} runs a model in-process; model {model} is served: "
                "drop backend (or set it to openai), or give a local model"
            )
        return "openai"
    if backend == "openai":
        raise ConfigError("backend openai needs model: openai:NAME (the served model's name)")
    return auto_backend(model, device, dtype) if backend == "auto" else backend


def check_backend(
    model: str, backend: str, device: str, dtype: str, params: GenerationParams
) -> None:
    """Config check (no model loaded): the backend, its dtype and the generation
    parameters it can honour, each refusal naming the field (under auto, of the engine
    auto takes here)."""
    chosen = backend_for(model, backend, device, dtype)
    if chosen == "openai":
        from synth.generation.openai_engine import check_supported

        check_supported(params)
        return
    BACKENDS[chosen].check(model, device, dtype, params)


def build_engine(
    model: str,
    backend: str = "auto",
    device: str = "auto",
    dtype: str = "auto",
    threads: int | None = None,
    endpoint: dict | None = None,
):
    """The engine itself, here and now (hrsynth serve, benchmarks)."""
    chosen = backend_for(model, backend, device, dtype)
    if chosen == "openai":
        from synth.generation.openai_engine import OpenAIEngine

        return OpenAIEngine(model, endpoint)
    return BACKENDS[chosen].build(model, device, dtype, threads)


def engine_factory(cfg):
    """A picklable callable that builds the config's engine where it runs (in each actor)."""
    gen = cfg.generator
    chosen = backend_for(gen.model, gen.backend, gen.device, gen.dtype)
    if chosen == "openai":
        from synth.generation.openai_engine import OpenAIEngine

        return partial(OpenAIEngine, gen.model, gen.engine)
    return partial(BACKENDS[chosen].build, gen.model, gen.device, gen.dtype)


def check_engine(cfg) -> None:
    """Resolve the config's model on the driver, before Ray starts: a local path or hub id
    that cannot be read, a model CTranslate2 cannot convert, a Hugging Face model given to
    llama.cpp, or an endpoint that does not answer, is one line here."""
    gen = cfg.generator
    chosen = backend_for(gen.model, gen.backend, gen.device, gen.dtype)
    if chosen == "openai":
        from synth.generation.openai_engine import OpenAIEngine

        OpenAIEngine(gen.model, gen.engine).check_reachable()
        return
    BACKENDS[chosen].resolve(gen.model, gen.device, gen.dtype)


def start_line(cfg, threads: int | None = None) -> str:
    """One line for the start of a run: which engine, on what, and why."""
    gen = cfg.generator
    chosen = backend_for(gen.model, gen.backend, gen.device, gen.dtype)
    if chosen == "openai":
        return f"engine: served endpoint {gen.model}"
    why = " (auto: the fastest measured here)" if gen.backend == "auto" else ""
    where = "GPU" if _on_gpu(gen.device) else f"{threads or '?'} threads, {cpu_name()}"
    what = {"llama": _gguf_name, "ct2": _ct2_type, "hf": _hf_type}[chosen](gen)
    return f"engine: {BACKENDS[chosen].label} {what}, {where}{why}"


def _gguf_name(gen) -> str:
    from synth.generation.llama_engine import gguf_path

    return gguf_path(gen.model).name


def _ct2_type(gen) -> str:
    from synth.generation.ct2_engine import pick_device_type

    return pick_device_type(gen.device, gen.dtype)[2]


def _hf_type(gen) -> str:
    from synth.generation.hf_engine import pick_device_dtype

    return str(pick_device_dtype(gen.device, gen.dtype)[1]).removeprefix("torch.")
