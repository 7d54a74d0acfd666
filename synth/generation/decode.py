"""A sampling loop that keeps a batch of rows decoding while rows finish and new ones
join (continuous batching), with its bookkeeping in tensors on the model's device.

`transformers.generate` keeps every row of a batch in the forward pass until the longest
is done and samples from the full vocabulary. Here:
- a finished row leaves the batch, and a waiting request (another document's slot, or the
  next slot of the document just finished) takes its place, so the batch does not thin
  at its tail; on a GPU, finished rows are dropped in bulk (`lazy_fraction`) rather than
  copying the KV cache every step;
- new tokens, counts and limits live in tensors: a step runs no Python per row. Its stop
  test reads token ids (end-of-sequence, the row's token limit, and the `triggers` after
  which a slot can first be finished); only a row whose new token is a trigger is decoded
  to text and tested (`finished`), and only those rows cross to the host;
- sampling draws from the top-k candidates only, the same distribution as top-k → top-p →
  multinomial over the full vocabulary.

With every request admitted at once and finished rows dropped every step (the defaults,
and `sample_rows`), a row's tokens are exactly those of the loop before issue 55: the
same rows sample in the same order from the same generator. The HF engine runs it for
the model layouts row_cache has none for (row_decode decodes the others); beam search
and forced words still go through `generate` (hf_engine.py).
"""

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch
from transformers.cache_utils import DynamicCache, DynamicLayer
from transformers.generation.logits_process import (
    NoBadWordsLogitsProcessor,
    NoRepeatNGramLogitsProcessor,
    RepetitionPenaltyLogitsProcessor,
)

from synth.generation.params import GenerationParams


@dataclass
class Request:
    """One continuation to write: its prompt's token ids, its own token limit, and what
    its stop test needs (`stop`, handed back to `finished`); `key` is the caller's.
    row_decode reads two more: `seed`, the request's own draws, and `same_row`, whether
    it continues in the row of the request whose `on_done` returned it."""

    key: object
    ids: list[int]
    max_new: int
    stop: object = None
    seed: int = 0
    same_row: bool = False


def candidates(logits: torch.Tensor, params: GenerationParams) -> tuple[torch.Tensor, torch.Tensor]:
    """The top-k candidates of each row (sorted, most likely first) and their
    probabilities, zero past the smallest prefix whose mass reaches top_p and below
    min_p times the likeliest's (transformers' order: top-k, top-p, min-p)."""
    k = min(params.top_k or logits.shape[-1], logits.shape[-1])
    values, index = torch.topk(logits / params.temperature, k, dim=-1)  # sorted, descending
    probs = torch.softmax(values, dim=-1)
    if params.top_p < 1.0:
        # Keep the smallest prefix whose mass reaches top_p (at least one candidate).
        outside = probs.cumsum(dim=-1) - probs > params.top_p
        probs = probs.masked_fill(outside, 0.0)
    if params.min_p > 0:  # below min_p × the likeliest (the first: sorted) is out
        probs = probs.masked_fill(probs < params.min_p * probs[..., :1], 0.0)
    return probs, index


def _pick(logits: torch.Tensor, params: GenerationParams, rng: torch.Generator) -> torch.Tensor:
    if not params.do_sample:
        return logits.argmax(dim=-1)
    probs, index = candidates(logits, params)
    choice = torch.multinomial(probs, 1, generator=rng)
    return index.gather(-1, choice).squeeze(-1)


@dataclass(frozen=True)
class Stops:
    """What a step's stop test reads, on the model's device: the end-of-sequence ids,
    the trigger tokens (None: every row is text-tested every step), the count at which a
    row is first tested, and the count below which end-of-sequence is banned."""

    eos: torch.Tensor
    eos_list: list[int]
    triggers: torch.Tensor | None
    first_check: int
    min_new: int

    @classmethod
    def of(cls, params: GenerationParams, eos_ids: set[int], triggers, device) -> "Stops":
        return cls(
            torch.tensor(sorted(eos_ids), dtype=torch.long, device=device),
            sorted(eos_ids),
            None if triggers is None else torch.tensor(sorted(triggers), device=device),
            max(params.min_new_tokens, 1),
            params.min_new_tokens,
        )


def advance(rows, index: torch.Tensor, logits: torch.Tensor, draw, stops: Stops, finished):
    """One new token for each row at `index` of `rows` (an object holding per-row
    `tokens`, `counts`, `limits`, `last` and `requests`): end-of-sequence banned below
    the minimum, the token drawn by `draw(logits, counts)` and recorded; returns the rows
    that ended (end-of-sequence, their limit, or `finished` on their text)."""
    counts = rows.counts[index]
    if stops.min_new:
        banned = (counts < stops.min_new)[:, None]
        logits[:, stops.eos_list] = logits[:, stops.eos_list].masked_fill(banned, float("-inf"))
    token = draw(logits, counts)
    rows.tokens[index, counts] = token
    counts = counts + 1
    rows.counts[index] = counts
    rows.last[index] = token
    ended = torch.isin(token, stops.eos) | (counts >= rows.limits[index])
    ask = ~ended & (counts >= stops.first_check)
    if stops.triggers is not None:
        ask &= (counts == stops.first_check) | torch.isin(token, stops.triggers)
    asked = ask.nonzero().flatten()
    if len(asked):
        at = index[asked]
        lists = token_lists(rows.tokens[at], rows.counts[at])
        done = finished([rows.requests[i] for i in at.tolist()], lists)
        ended[asked] |= torch.tensor(done, device=logits.device)
    return index[ended]


def _processors(params: GenerationParams, eos_ids: set[int], bad_words_ids) -> list:
    processors = (
        [RepetitionPenaltyLogitsProcessor(params.repetition_penalty)]
        if params.repetition_penalty != 1.0
        else []
    )
    if params.no_repeat_ngram_size:
        processors.append(NoRepeatNGramLogitsProcessor(params.no_repeat_ngram_size))
    if bad_words_ids:
        processors.append(NoBadWordsLogitsProcessor(bad_words_ids, eos_token_id=list(eos_ids)))
    return processors


def _pad_left(t: torch.Tensor, width: int, value, dim: int) -> torch.Tensor:
    missing = width - t.shape[dim]
    if missing <= 0:
        return t
    shape = list(t.shape)
    shape[dim] = missing
    return torch.cat([t.new_full(shape, value), t], dim=dim)


def mergeable(cache) -> bool:
    """Whether rows can join `cache` mid-decode: every layer a plain growing one (not a
    sliding window or a recurrent state), whose keys and values can be padded."""
    return isinstance(cache, DynamicCache) and all(type(x) is DynamicLayer for x in cache.layers)


class _Rows:
    """The batch in flight, one row per request: the KV cache, the token history the
    logits processors read (`seq`, left-padded), the attention mask, positions, the new
    tokens written so far (`tokens`, `counts`) and each row's limit."""

    def __init__(self, model, requests: list[Request], pad_id: int, device):
        width = max(len(r.ids) for r in requests)
        self.seq = torch.tensor(
            [[pad_id] * (width - len(r.ids)) + r.ids for r in requests], device=device
        )
        self.mask = torch.tensor(
            [[0] * (width - len(r.ids)) + [1] * len(r.ids) for r in requests], device=device
        )
        positions = (self.mask.long().cumsum(-1) - 1).clamp(min=0)
        out = model(
            input_ids=self.seq,
            attention_mask=self.mask,
            position_ids=positions,
            use_cache=True,
            logits_to_keep=1,
        )
        self.cache, self.logits = out.past_key_values, out.logits[:, -1, :]
        self.last_pos = positions[:, -1]
        self.requests = list(requests)
        cap = max(r.max_new for r in requests)
        self.tokens = torch.zeros((len(requests), cap), dtype=torch.long, device=device)
        self.counts = torch.zeros(len(requests), dtype=torch.long, device=device)
        self.limits = torch.tensor([r.max_new for r in requests], device=device)
        self.last = torch.zeros(len(requests), dtype=torch.long, device=device)
        self.alive = torch.ones(len(requests), dtype=torch.bool, device=device)

    def __len__(self) -> int:
        return len(self.requests)

    def keep(self, index: torch.Tensor) -> None:
        """Keep only the rows at `index` (in that order), and drop the leading columns no
        kept row reads."""
        self.cache.batch_select_indices(index)
        for name in ("seq", "mask", "last_pos", "logits", "tokens", "counts", "limits", "last"):
            setattr(self, name, getattr(self, name)[index])
        self.alive = self.alive[index]
        self.requests = [self.requests[i] for i in index.tolist()]
        if len(self.requests):
            start = int(self.mask.any(0).int().argmax())
            if start:
                self._crop_left(start)

    def _crop_left(self, start: int) -> None:
        for layer in self.cache.layers:
            layer.keys, layer.values = layer.keys[:, :, start:], layer.values[:, :, start:]
        self.seq, self.mask = self.seq[:, start:], self.mask[:, start:]

    def step(self, model) -> None:
        """One forward step: every row reads its last token."""
        self.seq = torch.cat([self.seq, self.last[:, None]], dim=-1)
        self.mask = torch.cat([self.mask, self.mask.new_ones((len(self), 1))], dim=-1)
        self.last_pos = self.last_pos + 1
        out = model(
            input_ids=self.last[:, None],
            attention_mask=self.mask,
            position_ids=self.last_pos[:, None],
            past_key_values=self.cache,
            use_cache=True,
        )
        self.logits = out.logits[:, -1, :]

    def join(self, other: "_Rows", pad_id: int) -> None:
        """Append `other`'s rows (just prefilled), padding the shorter history on the left
        (masked out, so no row reads it)."""
        width = max(self.mask.shape[1], other.mask.shape[1])
        for mine, theirs in zip(self.cache.layers, other.cache.layers):
            mine.keys = torch.cat(
                [_pad_left(mine.keys, width, 0, 2), _pad_left(theirs.keys, width, 0, 2)]
            )
            mine.values = torch.cat(
                [_pad_left(mine.values, width, 0, 2), _pad_left(theirs.values, width, 0, 2)]
            )
        self.seq = torch.cat(
            [_pad_left(self.seq, width, pad_id, 1), _pad_left(other.seq, width, pad_id, 1)]
        )
        self.mask = torch.cat(
            [_pad_left(self.mask, width, 0, 1), _pad_left(other.mask, width, 0, 1)]
        )
        cap = max(self.tokens.shape[1], other.tokens.shape[1])
        self.tokens = torch.cat(
            [torch.nn.functional.pad(t, (0, cap - t.shape[1])) for t in (self.tokens, other.tokens)]
        )
        for name in ("last_pos", "logits", "counts", "limits", "last", "alive"):
            setattr(self, name, torch.cat([getattr(self, name), getattr(other, name)]))
        self.requests += other.requests


@torch.inference_mode()
def decode_stream(
    model,
    requests: Iterable[Request],
    params: GenerationParams,
    eos_ids: set[int],
    finished: Callable[[list[Request], list[list[int]]], list[bool]],
    on_done: Callable[[Request, list[int]], Iterable[Request]],
    *,
    seed: int = 0,
    triggers: frozenset[int] | None = None,
    bad_words_ids=None,
    pad_id: int = 0,
    rows_in_flight: int | None = None,
    lazy_fraction: float = 0.0,
) -> None:
    """Continue every request, and every request `on_done` adds, until none is left.

    `finished(requests, token_lists)`: which of those rows may stop (the slot's text test);
    `on_done(request, new_ids)` as each row ends (end-of-sequence, its limit, or finished),
    returning the requests that follow from it (they wait for a free row). At most
    `rows_in_flight` rows decode at once (None: every waiting request). Finished rows leave
    the batch when they are at least `lazy_fraction` of it, or when requests wait for
    their place (0: every step). `triggers`: the only tokens after which a row can first
    be finished; other rows are not text-tested (None: every row, every step)."""
    waiting = deque(requests)
    if not waiting:
        return
    device = next(model.parameters()).device
    rng = torch.Generator(device=device).manual_seed(seed)
    processors = _processors(params, eos_ids, bad_words_ids)
    stops = Stops.of(params, eos_ids, triggers, device)
    limit = rows_in_flight or len(waiting)

    def admit(n: int) -> "_Rows | None":
        take = [waiting.popleft() for _ in range(min(n, len(waiting)))]
        return _Rows(model, take, pad_id, device) if take else None

    rows = admit(limit)
    # A cache that cannot take rows mid-decode (sliding windows, recurrent states): new
    # rows start only once the batch is empty, a batch at a time.
    joins = mergeable(rows.cache)
    while True:
        dead = len(rows) - int(rows.alive.sum()) if lazy_fraction else 0
        live = rows.alive.nonzero().flatten() if dead else None
        logits, seq = rows.logits.float(), rows.seq
        if live is not None:
            logits, seq = logits[live], seq[live]
        for proc in processors:
            logits = proc(seq, logits)
        index = live if live is not None else torch.arange(len(rows), device=device)
        gone = advance(rows, index, logits, lambda x, _: _pick(x, params, rng), stops, finished)
        if len(gone):
            rows.alive[gone] = False
            at = gone.tolist()
            for i, ids in zip(at, token_lists(rows.tokens[gone], rows.counts[gone])):
                waiting.extend(on_done(rows.requests[i], ids))
        alive = int(rows.alive.sum())
        if not alive and not waiting:
            return
        free = limit - alive
        if alive < len(rows) and (
            alive == 0
            or not lazy_fraction
            or (waiting and free > 0)
            or len(rows) - alive >= lazy_fraction * len(rows)
        ):
            rows.keep(rows.alive.nonzero().flatten())
        if len(rows):
            rows.step(model)
        room = waiting and len(rows) < limit and (joins or not len(rows))
        new = admit(limit - len(rows)) if room else None
        if new is None:
            continue
        if len(rows):
            rows.join(new, pad_id)
        else:
            rows = new


def token_lists(tokens: torch.Tensor, counts: torch.Tensor) -> list[list[int]]:
    """Each row's first `counts` tokens, in one transfer to the host."""
    return [row[:n] for row, n in zip(tokens.tolist(), counts.tolist())]


def sample_rows(
    model,
    enc,
    params: GenerationParams,
    eos_ids: set[int],
    finished: Callable[[list[list[int]]], list[bool]],
    bad_words_ids=None,
    seed: int = 0,
    triggers: frozenset[int] | None = None,
) -> list[list[int]]:
    """New token ids per row of one left-padded batch (`enc`), every row at once;
    `finished(token_lists)` says which of those rows may stop."""
    mask = enc.attention_mask.bool()
    padded = enc.input_ids[~mask]
    pad_id = int(padded[0]) if len(padded) else 0
    requests = [
        Request(r, ids[m].tolist(), params.max_new_tokens)
        for r, (ids, m) in enumerate(zip(enc.input_ids, mask))
    ]
    new: list[list[int]] = [[] for _ in requests]

    def done(request: Request, ids: list[int]) -> list[Request]:
        new[request.key] = ids
        return []

    decode_stream(
        model,
        requests,
        params,
        eos_ids,
        lambda _, lists: finished(lists),
        done,
        seed=seed,
        triggers=triggers,
        bad_words_ids=bad_words_ids,
        pad_id=pad_id,
    )
    return new


# What a slot's stop test counts (synth.generation.trimming.is_finished): sentence ends
# (. ! ?) and paragraph breaks. Their count grows only on a token holding one of these.
STOP_CHARACTERS = ".!?\n"


def stop_triggers(tokenizer) -> frozenset[int]:
    """The ids of the tokens whose text holds a stop character: the only tokens after
    which a slot can first be finished (byte-level pieces keep ASCII bytes whole)."""
    ids = range(len(tokenizer))
    texts = tokenizer.batch_decode([[i] for i in ids], skip_special_tokens=False)
    return frozenset(i for i, text in zip(ids, texts) if any(c in text for c in STOP_CHARACTERS))
