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


def ban_ngrams(
    logits: torch.Tensor, history: torch.Tensor, lengths: torch.Tensor, size: int
) -> torch.Tensor:
    """transformers' NoRepeatNGramLogitsProcessor over each row's own tokens: a token that
    would repeat an n-gram of `size` the row already holds is banned. `history` holds each
    row's tokens (prompt and continuation) below its `lengths`; fixed shapes, no host
    read (the step stays one graph)."""
    width = history.shape[1]
    if size < 1 or width < size:
        return logits
    windows = history.unfold(1, size, 1)  # (rows, width - size + 1, size)
    starts = torch.arange(windows.shape[1], device=history.device)
    inside = starts[None, :] + size <= lengths[:, None]
    if size > 1:
        back = torch.arange(size - 1, device=history.device)
        at = (lengths[:, None] - (size - 1) + back[None, :]).clamp(min=0)
        suffix = history.gather(1, at)  # the row's last size-1 tokens
        inside = inside & (windows[..., : size - 1] == suffix[:, None, :]).all(dim=-1)
    inside = inside & (lengths + 1 >= size)[:, None]
    hits = torch.zeros(logits.shape, dtype=torch.long, device=logits.device)
    hits.scatter_add_(1, windows[..., size - 1], inside.long())
    return logits.masked_fill(hits > 0, float("-inf"))


def ban_words(
    logits: torch.Tensor,
    history: torch.Tensor,
    lengths: torch.Tensor,
    words: tuple[tuple[int, ...], ...],
    always: torch.Tensor | None,
) -> torch.Tensor:
    """transformers' NoBadWordsLogitsProcessor: a one-token bad word is never drawn
    (`always`, a vocabulary mask); the last token of a longer one is banned where the
    row's last tokens are the rest of it."""
    banned = torch.zeros(logits.shape, dtype=torch.bool, device=logits.device)
    if always is not None:
        banned = banned | always[None, :]
    for word in words:
        k = len(word) - 1
        back = torch.arange(k, device=history.device)
        at = (lengths[:, None] - k + back[None, :]).clamp(min=0)
        tail = history.gather(1, at)
        prefix = torch.tensor(word[:-1], dtype=history.dtype, device=history.device)
        hit = (tail == prefix[None, :]).all(dim=-1) & (lengths >= k)
        banned[:, word[-1]] |= hit
    return logits.masked_fill(banned, float("-inf"))
