"""Sampling that gives a row the same tokens whatever else is in its batch.

One generator shared by a batch hands each row the random numbers of its place in the
batch, so a row's text depends on the batch size, on which rows are in flight and in
what order. Here a row's draws come from its own seed and its own token count, through
a counter-based hash (splitmix64, computed in tensors on the model's device): the n-th
token of a request is drawn from the same number in any batch, on any schedule. The
token is the inverse of the top-k → top-p distribution's cumulative mass at that
number: the same distribution as `decode._pick`, other draws.
"""

import torch

from synth.generation.decode import candidates
from synth.generation.params import GenerationParams
from synth.generation.seeds import GOLDEN, MASK64, MIX1, MIX2


def _signed(value: int) -> int:
    """A 64-bit pattern as torch's int64 holds it."""
    value &= MASK64
    return value - (1 << 64) if value >= 1 << 63 else value


def _shift(x: torch.Tensor, bits: int) -> torch.Tensor:
    """Logical right shift of int64 tensors (torch's >> keeps the sign)."""
    return (x >> bits) & ((1 << (64 - bits)) - 1)


def uniforms(seeds: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
    """One float in [0, 1) per row, from its seed and its token count (int64 tensors);
    the tensor arithmetic wraps as splitmix64's unsigned arithmetic does."""
    x = seeds * _signed(GOLDEN) + counts + _signed(GOLDEN)
    x = (x ^ _shift(x, 30)) * _signed(MIX1)
    x = (x ^ _shift(x, 27)) * _signed(MIX2)
    x = x ^ _shift(x, 31)
    return _shift(x, 40).float() / float(1 << 24)


def pick(logits: torch.Tensor, params: GenerationParams, u: torch.Tensor) -> torch.Tensor:
    """Each row's token: the argmax without sampling; else the candidate at which the
    top-k → top-p distribution's cumulative mass passes the row's `u`."""
    if not params.do_sample:
        return logits.argmax(dim=-1)
    probs, index = candidates(logits, params)
    mass = probs.cumsum(dim=-1)
    at = (mass <= (u * mass[:, -1])[:, None]).sum(dim=-1).clamp(max=probs.shape[-1] - 1)
    return index.gather(-1, at[:, None]).squeeze(-1)


def penalise_repeats(logits: torch.Tensor, history: torch.Tensor, penalty: float) -> torch.Tensor:
    """transformers' repetition penalty over each row's own tokens (`history`)."""
    if penalty == 1.0:
        return logits
    held = logits.gather(1, history)
    held = torch.where(held < 0, held * penalty, held / penalty)
    return logits.scatter(1, history, held)
