"""The decode step as one function of device tensors, and the ways it is run.

A step of row_decode samples a token for every row in a bucket (rows 0..n-1), records
it, tests end-of-sequence and the token limit, marks the rows whose token could end
their slot's text, and feeds the token through the model (row_cache.forward_step): it
reads nothing from the host and the host reads nothing from it. Where the host used to
wait inside a step (a boolean mask's count, widths from host lengths, the stop test's
rows), the step now uses index tensors, a fixed bucket (`n` rows, `width` positions,
chosen by the host from what it knew at its last read) and per-row flags the host
collects every few steps (row_decode).

Fixed buckets make the step a graph of fixed shapes: on a CPU it compiles with
`torch.compile(fullgraph=True)` without a graph break; on a GPU each bucket's step is
captured once as a CUDA graph and replayed, so Python launches no kernel per layer.
"""

import os
import time
from dataclasses import dataclass

import torch

from synth.generation.params import GenerationParams
from synth.generation.row_cache import RowCache, forward_step
from synth.generation.row_sampling import ban_ngrams, ban_words, penalise_repeats, pick, uniforms

# How a step is run: eagerly, compiled (torch.compile, fullgraph), or captured (one CUDA
# graph per bucket, replayed).
MODES = ("eager", "compiled", "captured")


@dataclass(frozen=True)
class StepRule:
    """What every step of a stream applies, fixed for the stream: the sampling
    parameters (Python constants: a compiled step specialises on them), and vocabulary
    masks on the device for end-of-sequence and the trigger tokens (None: every token
    may end a slot's text), so the step indexes a mask rather than searching a set."""

    params: GenerationParams
    is_eos: torch.Tensor
    is_trigger: torch.Tensor | None
    first_check: int
    min_new: int
    # Bad words (params.bad_words as token ids): one-token ones as a vocabulary mask,
    # longer ones as constants the step matches against each row's last tokens.
    is_bad: torch.Tensor | None = None
    bad_sequences: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(
        cls, params: GenerationParams, eos_ids, triggers, vocab: int, device, bad_words_ids=None
    ) -> "StepRule":
        def mask(ids):
            out = torch.zeros(vocab, dtype=torch.bool, device=device)
            out[torch.tensor(sorted(i for i in ids if 0 <= i < vocab), dtype=torch.long)] = True
            return out

        # as transformers: a bad word that is an end-of-sequence id alone is no bad word
        words = [
            tuple(w) for w in bad_words_ids or () if w and list(w) not in [[e] for e in eos_ids]
        ]
        single = {w[0] for w in words if len(w) == 1}
        return cls(
            params,
            mask(eos_ids),
            None if triggers is None else mask(triggers),
            max(params.min_new_tokens, 1),
            params.min_new_tokens,
            mask(single) if single else None,
            tuple(sorted({w for w in words if len(w) > 1 and all(0 <= t < vocab for t in w)})),
        )


@dataclass
class RowState:
    """The per-row tensors a step reads and writes, on the model's device: the logits
    each row samples from next, the tokens written so far (a last column is the scratch
    place of rows that do not sample), their count, each row's limit and seed, whether
    it samples (`live`: cleared on the device by end-of-sequence or the limit), and
    whether a token that could end its slot's text came since the host last looked
    (`asked`)."""

    logits: torch.Tensor
    tokens: torch.Tensor
    counts: torch.Tensor
    limits: torch.Tensor
    seeds: torch.Tensor
    live: torch.Tensor
    asked: torch.Tensor

    @classmethod
    def empty(cls, rows: int, vocab: int, cap: int, device) -> "RowState":
        def longs():
            return torch.zeros(rows, dtype=torch.long, device=device)

        return cls(
            torch.zeros((rows, vocab), dtype=torch.float, device=device),
            torch.zeros((rows, cap + 1), dtype=torch.long, device=device),
            longs(),
            longs(),
            longs(),
            torch.zeros(rows, dtype=torch.bool, device=device),
            torch.zeros(rows, dtype=torch.bool, device=device),
        )


def decode_step(model, cache: RowCache, state: RowState, rule: StepRule, n: int, width: int):
    """One step of rows 0..n-1, in place: each live row samples a token from its logits
    (repetition penalty, n-gram and bad-word bans over its own tokens, as transformers'
    processors apply them; end-of-sequence banned below the minimum,
    its draw from its seed and count), records it, and is fed it; a row that reaches
    end-of-sequence or its limit stops being live. Every row of the bucket is computed;
    a row that is not live writes only to its scratch places. `width` must hold every
    row's next position."""
    params = rule.params
    live = state.live[:n]
    counts = state.counts[:n]
    lengths = cache.device_lengths[:n]
    logits = state.logits[:n]
    held = cache.tokens[:n, :width]
    if params.repetition_penalty != 1.0:
        inside = torch.arange(width, device=held.device)[None, :] < lengths[:, None]
        history = torch.where(inside, held, held[:, :1])
        logits = penalise_repeats(logits, history, params.repetition_penalty)
    if params.no_repeat_ngram_size:  # transformers' order: penalty, n-grams, bad words
        logits = ban_ngrams(logits, held, lengths, params.no_repeat_ngram_size)
    if rule.is_bad is not None or rule.bad_sequences:
        logits = ban_words(logits, held, lengths, rule.bad_sequences, rule.is_bad)
    if rule.min_new:
        early = (counts < rule.min_new)[:, None] & rule.is_eos[None, :]
        logits = logits.masked_fill(early, float("-inf"))
    token = pick(logits, params, uniforms(state.seeds[:n], counts))
    scratch = state.tokens.shape[1] - 1
    column = torch.where(live, counts, scratch)
    state.tokens[:n].scatter_(1, column[:, None], token[:, None])
    counts = counts + live.long()
    ended = live & (rule.is_eos[token] | (counts >= state.limits[:n]))
    ask = live & ~ended & (counts >= rule.first_check)
    if rule.is_trigger is not None:
        ask = ask & ((counts == rule.first_check) | rule.is_trigger[token])
    feed = live & ~ended
    state.counts[:n] = counts
    state.asked[:n] |= ask
    state.live[:n] = feed
    state.logits[:n] = forward_step(model, cache, token, n, width)
    cache.device_lengths[:n] += feed.long()


class StepRunner:
    """Runs decode_step for a bucket in one of MODES. `compiled`: torch.compile with
    fullgraph (a bucket's first step compiles it). `captured` (CUDA only): a bucket's
    first step runs eagerly (it warms the kernels up), then the step is captured once
    as a CUDA graph (all buckets share one memory pool) and replayed from then on; the
    graphs are dropped when the cache is reallocated. A capture that fails says so in
    one line and the runner decodes eagerly from then on (the step it warmed up with
    was real, and a capture runs nothing). `capture_seconds` and `captured` say what
    capturing cost."""

    def __init__(self, model, cache: RowCache, state: RowState, rule: StepRule, mode: str):
        if mode not in MODES:
            raise ValueError(f"step mode {mode!r}: one of {', '.join(MODES)}")
        if mode == "captured" and cache.device.type != "cuda":
            raise ValueError("a captured step needs a CUDA device; use 'eager' or 'compiled'")
        self.model, self.cache, self.state, self.rule, self.mode = model, cache, state, rule, mode
        self.steps = 0
        self.captured = 0  # graphs captured (a reallocation drops them: captured again)
        self.capture_seconds = 0.0
        self._graphs: dict[tuple[int, int], torch.cuda.CUDAGraph] = {}
        self._generation = self._tensors()
        self._pool = None
        self._compiled = compiled_step() if mode == "compiled" else None

    def _tensors(self) -> tuple[int, int]:
        return self.cache.generation, id(self.state.tokens)

    def run(self, n: int, width: int) -> None:
        self.steps += 1
        args = (self.model, self.cache, self.state, self.rule, n, width)
        if self.mode == "compiled":
            self._compiled(*args)
            return
        if self.mode == "eager":
            decode_step(*args)
            return
        if self._tensors() != self._generation:  # reallocated: the graphs read the old ones
            self._graphs.clear()
            self._generation = self._tensors()
        graph = self._graphs.get((n, width))
        if graph is not None:
            graph.replay()
            return
        decode_step(*args)  # the bucket's first step: a real step, and the warm-up
        try:
            self._graphs[(n, width)] = self._capture(args)
        except RuntimeError as error:  # a capture records and runs nothing: state holds
            print(
                f"warning: the decode step could not be captured as a CUDA graph "
                f"({type(error).__name__}: {str(error).splitlines()[0][:200]}); "
                "decoding eagerly from here",
                flush=True,
            )
            self.mode = "eager"

    def _capture(self, args) -> "torch.cuda.CUDAGraph":
        start = time.perf_counter()
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, pool=self._pool):
            decode_step(*args)
        self._pool = self._pool or graph.pool()
        torch.cuda.synchronize()
        self.capture_seconds += time.perf_counter() - start
        self.captured += 1
        return graph


_COMPILED = None


def compiled_step():
    """decode_step under torch.compile (fullgraph: a graph break is an error), one per
    process. The first bucket compiles with its sizes fixed; the next makes them
    symbolic (torch's automatic dynamic shapes), so buckets share one graph; the
    recompile limit is raised for the sampling settings a process may use."""
    global _COMPILED
    if _COMPILED is None:
        import torch._dynamo

        torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, 64)
        _keep_forced_kernels_apart()
        _COMPILED = torch.compile(decode_step, fullgraph=True)
    return _COMPILED


def _keep_forced_kernels_apart() -> None:
    """A process forced onto another CPU code path (ATEN_CPU_CAPABILITY, as `make
    durations` forces AVX2) compiles into an inductor cache of its own. Sharing the
    default one, torch 2.13 served it the kernels an unforced run had compiled, and the
    compiled step crashed (a segmentation fault). A cache the user chose is kept; torch's
    default, which torch writes into the environment once it has compiled, is not."""
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    forced = os.environ.get("ATEN_CPU_CAPABILITY")
    default = default_cache_dir()
    if forced and os.environ.get("TORCHINDUCTOR_CACHE_DIR", default) == default:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = f"{default}_{forced}"
