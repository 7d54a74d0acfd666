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

The steps run on the device without the host (row_step): the host launches `read_every`
steps, then reads the device once (each row's count, whether it is still live, whether
a token that could end its slot's text came). A row that ended at the first of those
steps idles in its row until the read; a row whose text may have ended is tested at
each such token since the last read, in order, and cut at the first that ends it, so
the text is what reading every step would give. The `on_done` work of the rows a read
collects (the next slot's prompt, rendered and tokenized) runs on a host thread while
the next steps decode; its requests are placed at the next read.
"""

import bisect
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import torch

from synth.generation.decode import Request, token_lists
from synth.generation.params import GenerationParams
from synth.generation.row_cache import RowCache, extend
from synth.generation.row_step import RowState, StepRule, StepRunner

# The most prompt tokens one prefill call holds (rows × their widest chunk); a longer
# prompt is prefilled in chunks of at most this many tokens.
PREFILL_TOKENS = 8192


def usable(params: GenerationParams) -> bool:
    """Whether this loop applies `params`: sampling or greedy, with the repetition
    penalty, n-gram bans, bad words and a minimum length (everything but beams and
    forced words, which only transformers' beam search has)."""
    return params.num_beams == 1 and not params.force_words


def _common_prefix(held: list[int], wanted: list[int]) -> int:
    n = 0
    for a, b in zip(held, wanted):
        if a != b:
            break
        n += 1
    return n


def bucket_rows(top: int, rows: int) -> int:
    """The rows a step computes: the power of two at or above `top`, at most `rows`."""
    return min(1 << max(top - 1, 0).bit_length(), rows)


class _Slots:
    """The rows: on the host, which request each holds, whether it is decoding (as of
    the last read), the prompt tokens it still has to be fed, the length its generated
    tokens start at and the count the host last tested; on the device, the cache and the
    per-row tensors the step reads (row_step.RowState)."""

    def __init__(self, model, rows: int, width: int, cap: int):
        self.cache = RowCache(model, rows, width)
        vocab = model.get_output_embeddings().weight.shape[0]
        self.state = RowState.empty(rows, vocab, cap, self.cache.device)
        self.requests: list[Request | None] = [None] * rows
        self.to_feed: dict[int, list[int]] = {}
        self.free = list(range(rows - 1, -1, -1))  # popped lowest first
        self.decoding = np.zeros(rows, dtype=bool)
        self.starts = np.zeros(rows, dtype=np.int64)
        self.checked = np.zeros(rows, dtype=np.int64)
        # the tokens a row holds when its request ends (its prompt and all but its last
        # new token), known on the host: a continued row is compared without a read
        self.left_with: dict[int, list[int]] = {}
        self.prefilled = 0  # prompt tokens fed (a continued row's kept tokens are not)

    def place(self, row: int, request: Request, keep: int) -> None:
        """`request` in `row`, keeping the first `keep` tokens the row holds."""
        state = self.state
        if request.max_new + 1 > state.tokens.shape[1]:
            wider = state.tokens.new_zeros((len(self.requests), request.max_new + 1))
            wider[:, : state.tokens.shape[1] - 1] = state.tokens[:, :-1]
            state.tokens = wider
        self.requests[row] = request
        self.cache.set_length(row, keep)
        self.to_feed[row] = request.ids[keep:]
        state.counts[row] = 0
        state.limits[row] = request.max_new
        state.seeds[row] = request.seed
        state.live[row] = False
        self.decoding[row] = False
        self.checked[row] = 0

    def continue_in(self, row: int, request: Request) -> None:
        """`request` in the row its predecessor left: keep the tokens its prompt begins
        with (at least its last token is fed again, for its logits)."""
        held = self.left_with.pop(row)
        keep = min(_common_prefix(held, request.ids), len(request.ids) - 1)
        self.place(row, request, keep)

    def release(self, row: int) -> None:
        self.left_with.pop(row, None)
        self.requests[row] = None
        self.cache.set_length(row, 0)
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
            self.prefilled += sum(len(c) for c in chunks)
            done = []
            for i, (r, chunk) in enumerate(zip(group, chunks)):
                left[r] = left[r][len(chunk) :]
                if not left[r]:
                    done.append(i)
                    del left[r]
            if done:
                rows = [group[i] for i in done]
                at = torch.tensor(rows, device=self.cache.device)
                self.state.logits[at] = logits[done]
                self.state.live[at] = True
                self.decoding[rows] = True
                self.starts[rows] = self.cache.lengths[rows]

    def compact(self) -> None:
        """Move the highest decoding rows into free rows below them, one row's cache
        each, so that the step's rows 0..n-1 are all (or nearly all) decoding: a step
        computes every row of its bucket."""
        free = sorted(self.free)
        state = self.state
        while free:
            on = np.flatnonzero(self.decoding)
            if not len(on) or free[0] > on[-1]:
                break
            target, source = free.pop(0), int(on[-1])
            self.cache.move(source, target)
            for per_row in (
                state.counts,
                state.limits,
                state.seeds,
                state.live,
                state.tokens,
                state.logits,
            ):
                per_row[target] = per_row[source]
            state.live[source] = False
            for host in (self.starts, self.checked):
                host[target] = host[source]
            self.requests[target], self.requests[source] = self.requests[source], None
            self.decoding[target], self.decoding[source] = True, False
            bisect.insort(free, source)
        self.free = free[::-1]

    def bucket(self, steps: int) -> tuple[int, int]:
        """Rows and width of the next `steps` steps: rows up to the highest held (a
        power of two), and a width that holds every position those steps write (each
        decoding row at most `steps` further, never past its limit), in WIDTH_STEP
        steps."""
        held = np.flatnonzero(self.decoding)
        n = bucket_rows(int(held[-1]) + 1, len(self.requests))
        lengths = self.cache.lengths[:n]
        reach = lengths + 1
        on = self.decoding[:n]
        limits = np.array([r.max_new if r else 0 for r in self.requests[:n]], dtype=np.int64)
        reach[on] = np.minimum(lengths[on] + steps, self.starts[:n][on] + limits[on])
        width = int(reach.max())
        self.cache.fit(width)
        return n, min(-(-width // 64) * 64, self.cache.width)

    def read(self, n: int, finished, first_check: int, triggers) -> list[tuple[int, list[int]]]:
        """The host's look at rows 0..n-1: each row's count, live flag, length and asked
        flag in one copy; returns the rows whose request ended since the last read, with
        its tokens, in row order (end-of-sequence or the limit, on the device; or their
        text finished at a token that could end it, tested in order and cut there)."""
        state = self.state
        looked = torch.stack(
            [
                state.counts[:n],
                state.live[:n].long(),
                state.asked[:n].long(),
                self.cache.device_lengths[:n],
            ]
        ).cpu()
        state.asked[:n] = False
        counts, live, asked, lengths = looked.numpy()
        self.cache.lengths[:n] = lengths
        on = self.decoding[:n]
        look = np.flatnonzero(on & ((live == 0) | (asked == 1)))
        if not len(look):
            self.checked[:n][on] = counts[on]
            return []
        index = torch.from_numpy(look).to(self.cache.device)
        lists = dict(zip(look.tolist(), token_lists(state.tokens[index], counts[look])))
        ends = {int(r): len(lists[r]) for r in look if not live[r]}
        places = {
            r: _places(lists[r], int(self.checked[r]), first_check, triggers, not live[r])
            for r in lists
        }
        tests = {r: at for r, at in places.items() if at}
        while tests:  # one round per place: each row's earliest untested place
            rows = sorted(tests)
            answers = finished(
                [self.requests[r] for r in rows], [lists[r][: tests[r][0]] for r in rows]
            )
            for r, done in zip(rows, answers):
                at = tests[r].pop(0)
                if done:
                    ends[r] = at
                if done or not tests[r]:
                    del tests[r]
        self.checked[:n][on] = counts[on]
        cut = [r for r in ends if live[r] or ends[r] < len(lists[r])]
        if cut:  # ended by its text: stop it and take back what it wrote since
            at = torch.tensor(cut, device=self.cache.device)
            state.live[at] = False
            state.counts[at] = torch.tensor([ends[r] for r in cut], device=self.cache.device)
            self.cache.set_length(cut, [self.starts[r] + ends[r] - 1 for r in cut])
        self.decoding[list(ends)] = False
        for r in ends:
            self.left_with[r] = self.requests[r].ids + lists[r][: ends[r] - 1]
        return [(r, lists[r][: ends[r]]) for r in sorted(ends)]


def _places(tokens: list[int], checked: int, first_check: int, triggers, ended: bool) -> list[int]:
    """The counts after `checked` at which a row's text is tested (as a step-by-step
    loop tests it): from `first_check` on, at `first_check` itself and after a trigger
    token (every count without triggers); not at the count where end-of-sequence or the
    limit ended the row."""
    last = len(tokens) - 1 if ended else len(tokens)
    return [
        c
        for c in range(max(checked + 1, first_check), last + 1)
        if triggers is None or c == first_check or tokens[c - 1] in triggers
    ]


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
    read_every: int = 1,
    step_mode: str = "eager",
    stats: dict | None = None,
    bad_words_ids: list[list[int]] | None = None,
) -> None:
    """Continue every request, and every request `on_done` adds, until none is left.

    The same contract as decode.decode_stream (`finished`, `on_done`, `triggers`), with
    each request's draws from its own `seed`; a request `on_done` returns marked
    `same_row` continues in the row just left. At most `rows_in_flight` rows (None: the
    first requests' count). The host reads the device every `read_every` steps; a step
    runs as `step_mode` (row_step.MODES). `stats`, when given, adds this call's steps,
    reads, graphs captured and capture seconds to its own; `bad_words_ids`: the token
    ids of params.bad_words (the engine's tokenizer knows them)."""
    waiting = deque(requests)
    if not waiting:
        return
    if not usable(params):
        raise ValueError("decode_rows has no beam search nor forced words")
    if read_every < 1:
        raise ValueError(f"read_every is {read_every}: at least 1 step between reads")
    rows = rows_in_flight or len(waiting)
    width = max(len(r.ids) + r.max_new for r in waiting)
    slots = _Slots(model, rows, width, max(r.max_new for r in waiting))
    device = slots.cache.device
    vocab = slots.state.logits.shape[1]
    rule = StepRule.of(params, eos_ids, triggers, vocab, device, bad_words_ids)
    runner = StepRunner(model, slots.cache, slots.state, rule, step_mode)
    reads = 0
    pending: list[tuple[int, Future]] = []  # on_done work under way, by the row it left

    def settle() -> None:
        """Place what the on_done work of the last read returned (in the order it was
        asked for: the same schedule however long the work took)."""
        for r, future in pending:
            follow = list(future.result())
            same = [f for f in follow if f.same_row]
            if same:
                slots.continue_in(r, same[0])
                follow.remove(same[0])
            else:
                slots.release(r)
            waiting.extend(follow)
        pending.clear()
        slots.free.sort(reverse=True)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="on_done") as host:
        while True:
            settle()
            while waiting and slots.free:
                slots.place(slots.free.pop(), waiting.popleft(), 0)
            slots.prefill(model)
            if not slots.decoding.any():
                break
            slots.compact()
            n, width = slots.bucket(read_every)
            for _ in range(read_every):
                runner.run(n, width)
            reads += 1
            for r, ids in slots.read(n, finished, rule.first_check, triggers):
                pending.append((r, host.submit(on_done, slots.requests[r], ids)))
    if stats is not None:
        _add_stats(stats, runner, reads, slots.prefilled)


def _add_stats(stats: dict, runner: StepRunner, reads: int, prefilled: int) -> None:
    """A call's steps, reads, graphs captured, capture seconds and prompt tokens added
    to `stats`."""
    counted = {
        "steps": runner.steps,
        "reads": reads,
        "graphs": runner.captured,
        "capture_seconds": runner.capture_seconds,
        "prefilled_tokens": prefilled,
    }
    for name, value in counted.items():
        stats[name] = stats.get(name, 0) + value
