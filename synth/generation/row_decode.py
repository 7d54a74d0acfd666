"""Continuous batching over a KV cache written in place (row_cache), with each request's
text independent of the batch it decodes in.

Every request decodes in a row of its own: its prompt is written into a free row
(prefilled in chunks, rows of similar lengths together), then each step samples a token
for every row that is decoding and writes its keys and values at the row's next
position. A row whose request ends goes to the next waiting request, written over it; when rows
stay free (no request waits), the highest decoding rows move down into them (one row's
cache each), so a step computes no idle row.

A request marked `same_row` (a document's next slot, or a retry of its slot) continues
in the row its predecessor just left: the row keeps the tokens its new prompt begins
with, and only the rest is prefilled, so a ticket's text is not prefilled again for each
slot. The model reads exactly the tokens a fresh prefill of the new prompt would give it
(the prompt is tokenized whole, and the row is cut back to where the two first differ):
the continuation is the same, up to the float rounding of another batch shape.

Draws come from each request's own seed and token count (row_sampling), and the
repetition penalty reads each row's own tokens, so a request writes the same tokens
whether it runs alone, in a batch of 8 or streamed beside 5,000 others.
"""

import bisect
from collections import deque
from collections.abc import Callable, Iterable

import numpy as np
import torch

from synth.generation.decode import Request, Stops, advance, token_lists
from synth.generation.params import GenerationParams
from synth.generation.row_cache import RowCache, extend, step
from synth.generation.row_sampling import penalise_repeats, pick, uniforms

# The most prompt tokens one prefill call holds (rows × their widest chunk); a longer
# prompt is prefilled in chunks of at most this many tokens.
PREFILL_TOKENS = 8192


def usable(params: GenerationParams) -> bool:
    """Whether this loop applies `params`: sampling or greedy, with the repetition
    penalty and a minimum length; n-gram bans and bad words go through decode_stream."""
    return (
        params.num_beams == 1
        and not params.force_words
        and not params.no_repeat_ngram_size
        and not params.bad_words
    )


def _common_prefix(held: list[int], wanted: list[int]) -> int:
    n = 0
    for a, b in zip(held, wanted):
        if a != b:
            break
        n += 1
    return n


class _Slots:
    """The rows: which request each holds, whether it is decoding (on the host), the
    prompt tokens it still has to be fed, and the per-row counters the sampler reads (on
    the device)."""

    def __init__(self, model, rows: int, width: int, cap: int):
        self.cache = RowCache(model, rows, width)
        device = self.cache.device
        self.requests: list[Request | None] = [None] * rows
        self.to_feed: dict[int, list[int]] = {}
        self.free = list(range(rows - 1, -1, -1))  # popped lowest first
        self.decoding = np.zeros(rows, dtype=bool)
        self.counts = torch.zeros(rows, dtype=torch.long, device=device)
        self.limits = torch.zeros(rows, dtype=torch.long, device=device)
        self.seeds = torch.zeros(rows, dtype=torch.long, device=device)
        self.last = torch.zeros(rows, dtype=torch.long, device=device)
        vocab = model.get_output_embeddings().weight.shape[0]
        self.logits = torch.zeros((rows, vocab), dtype=torch.float, device=device)
        self.tokens = torch.zeros((rows, cap), dtype=torch.long, device=device)

    def place(self, row: int, request: Request, keep: int) -> None:
        """`request` in `row`, keeping the first `keep` tokens the row holds."""
        if request.max_new > self.tokens.shape[1]:
            wider = self.tokens.new_zeros((len(self.requests), request.max_new))
            wider[:, : self.tokens.shape[1]] = self.tokens
            self.tokens = wider
        self.requests[row] = request
        self.cache.lengths[row] = keep
        self.to_feed[row] = request.ids[keep:]
        self.counts[row] = 0
        self.limits[row] = request.max_new
        self.seeds[row] = request.seed
        self.decoding[row] = False

    def continue_in(self, row: int, request: Request) -> None:
        """`request` in the row its predecessor left: keep the tokens its prompt begins
        with (at least its last token is fed again, for its logits)."""
        keep = min(_common_prefix(self.cache.held(row), request.ids), len(request.ids) - 1)
        self.place(row, request, keep)

    def release(self, row: int) -> None:
        self.requests[row] = None
        self.cache.lengths[row] = 0
        self.decoding[row] = False
        self.free.append(row)

    def prefill(self, model) -> None:
        """Feed every placed row the rest of its prompt: rows sorted by what is left, a
        call at most PREFILL_TOKENS tokens, long prompts in chunks."""
        left = self.to_feed
        while left:
            order = sorted(left, key=lambda r: len(left[r]))
            group, widest = [], 0
            for r in order:
                chunk = min(len(left[r]), PREFILL_TOKENS)
                if group and max(widest, chunk) * (len(group) + 1) > PREFILL_TOKENS:
                    break
                group.append(r)
                widest = max(widest, chunk)
            chunks = [left[r][:widest] for r in group]
            logits = extend(model, self.cache, group, chunks)
            done = []
            for i, (r, chunk) in enumerate(zip(group, chunks)):
                left[r] = left[r][len(chunk) :]
                if not left[r]:
                    done.append(i)
                    del left[r]
            if done:
                rows = [group[i] for i in done]
                self.logits[torch.tensor(rows, device=self.cache.device)] = logits[done]
                self.decoding[rows] = True

    def compact(self) -> None:
        """Move the highest decoding rows into free rows below them, one row's cache
        each, so that the step's rows 0..n-1 are all (or nearly all) decoding: a step
        computes every row up to the highest."""
        free = sorted(self.free)
        while free:
            on = np.flatnonzero(self.decoding)
            if not len(on) or free[0] > on[-1]:
                break
            target, source = free.pop(0), int(on[-1])
            self.cache.move(source, target)
            for per_row in (
                self.counts,
                self.limits,
                self.seeds,
                self.last,
                self.tokens,
                self.logits,
            ):
                per_row[target] = per_row[source]
            self.requests[target], self.requests[source] = self.requests[source], None
            self.decoding[target], self.decoding[source] = True, False
            bisect.insort(free, source)
        self.free = free[::-1]

    def decode(self, model) -> None:
        """Every decoding row reads its last token: one forward over the rows up to the
        highest decoding, in place (compacted first)."""
        self.compact()
        top = int(np.flatnonzero(self.decoding)[-1]) + 1
        feeding = self.decoding[:top].copy()
        logits = step(model, self.cache, self.last, feeding)
        on = torch.from_numpy(feeding).to(self.cache.device)[:, None]
        self.logits[:top] = torch.where(on, logits, self.logits[:top])


@torch.inference_mode()
def decode_rows(
    model,
    requests: Iterable[Request],
    params: GenerationParams,
    eos_ids: set[int],
    finished: Callable[[list[Request], list[list[int]]], list[bool]],
    on_done: Callable[[Request, list[int]], Iterable[Request]],
    *,
    triggers: frozenset[int] | None = None,
    rows_in_flight: int | None = None,
) -> None:
    """Continue every request, and every request `on_done` adds, until none is left.

    The same contract as decode.decode_stream (`finished`, `on_done`, `triggers`), with
    each request's draws from its own `seed`; a request `on_done` returns marked
    `same_row` continues in the row just left. At most `rows_in_flight` rows (None: the
    first requests' count)."""
    waiting = deque(requests)
    if not waiting:
        return
    if not usable(params):
        raise ValueError("decode_rows samples without n-gram bans or bad words")
    rows = rows_in_flight or len(waiting)
    width = max(len(r.ids) + r.max_new for r in waiting)
    slots = _Slots(model, rows, width, max(r.max_new for r in waiting))
    device = slots.cache.device
    stops = Stops.of(params, eos_ids, triggers, device)

    while True:
        while waiting and slots.free:
            slots.place(slots.free.pop(), waiting.popleft(), 0)
        slots.prefill(model)
        if not slots.decoding.any():
            return
        at_rows = np.flatnonzero(slots.decoding)
        index = torch.from_numpy(at_rows).to(device)
        logits = penalise_repeats(
            slots.logits[index],
            slots.cache.history(index, int(slots.cache.lengths[at_rows].max())),
            params.repetition_penalty,
        )
        gone = advance(
            slots,
            index,
            logits,
            lambda x, counts, seeds=slots.seeds[index]: pick(x, params, uniforms(seeds, counts)),
            stops,
            finished,
        )
        if len(gone):
            slots.decoding[gone.cpu().numpy()] = False
            for r, ids in zip(gone.tolist(), token_lists(slots.tokens[gone], slots.counts[gone])):
                follow = list(on_done(slots.requests[r], ids))
                same = [f for f in follow if f.same_row]
                if same:
                    slots.continue_in(r, same[0])
                    follow.remove(same[0])
                else:
                    slots.release(r)
                waiting.extend(follow)
            slots.free.sort(reverse=True)
        if slots.decoding.any():
            slots.decode(model)
