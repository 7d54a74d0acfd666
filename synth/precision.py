"""The precision the encoder (synth.encoder) runs at, chosen per CPU kind as the
generator's engine is (synth.generation.backends.AUTO).

Measured on the built detector's BIO model over the 223 human-written tickets, one
thread (benchmarks/results/encoder_precision.json, Intel Xeon with AMX): bf16 under
autocast is 2.6x float32, and every word's tag agrees with float32's in 218 of the 223
tickets; int8 dynamic quantisation is 1.9x (1.7x forced to AVX2) but agrees in 52 of 223
(probabilities move by up to 0.75), so int8 is not offered. Where the CPU has no native
bf16 (AVX2 only: bf16 is emulated there, far slower) `auto` stays float32; on a GPU it
is bf16.

torch is imported inside the functions: the driver's options name a precision without
loading it.
"""

import contextlib

from synth import ConfigError

PRECISIONS = ("auto", "float32", "bfloat16")


def native_bf16() -> bool:
    """Whether this CPU runs bf16 matmuls natively (AVX-512 BF16 or AMX)."""
    import torch

    return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())


def resolve_precision(precision: str, device: str = "cpu") -> str:
    """`auto` → what this device runs best without changing the detector's answers
    (bfloat16 on a GPU or a CPU with native bf16, else float32); a named one checked."""
    if precision not in PRECISIONS:
        raise ConfigError(
            f"--encoder-precision {precision!r} unknown; use one of {', '.join(PRECISIONS)}"
        )
    on_gpu = device.startswith("cuda")
    if precision == "auto":
        return "bfloat16" if on_gpu or native_bf16() else "float32"
    if precision == "bfloat16" and not on_gpu and not native_bf16():
        raise ConfigError(
            "--encoder-precision bfloat16: this CPU has no native bf16 (AVX2 only: it would "
            "be emulated, far slower than float32); use auto or float32"
        )
    return precision


def at_precision(precision: str, device: str = "cpu"):
    """The context the encoder's forward passes run in: autocast to bf16, or nothing."""
    if precision != "bfloat16":
        return contextlib.nullcontext()
    import torch

    return torch.autocast("cuda" if device.startswith("cuda") else "cpu", dtype=torch.bfloat16)


def encoder_device() -> str:
    """`cuda` where this process sees a GPU (a Ray actor given one), else `cpu`."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"
