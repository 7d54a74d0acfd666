"""The sampling loop as it was before issue 55 (one batch per call, per-row Python),
kept verbatim as the reference the new loop (synth.generation.decode) must match token
for token."""

from collections.abc import Callable

import torch
from transformers.generation.logits_process import (
    NoBadWordsLogitsProcessor,
    NoRepeatNGramLogitsProcessor,
    RepetitionPenaltyLogitsProcessor,
)

from synth.generation.decode import _pick
from synth.generation.params import GenerationParams


@torch.inference_mode()
def old_sample_rows(
    model,
    enc,
    params: GenerationParams,
    eos_ids: set[int],
    finished: Callable[[list[list[int]]], list[bool]],
    bad_words_ids=None,
    seed: int = 0,
    triggers: frozenset[int] | None = None,
) -> list[list[int]]:
    """New token ids per row; `finished(token_lists)` says which of those rows may stop.

    `triggers` (stop_triggers): the tokens after which a row can first be finished; a row
    is text-checked only on such a token (and at the first step a check is allowed), not
    decoded every step. The same rows stop at the same steps as with every row checked."""
    rng = torch.Generator(device=enc.input_ids.device).manual_seed(seed)
    seq, mask = enc.input_ids, enc.attention_mask
    processors = (
        [RepetitionPenaltyLogitsProcessor(params.repetition_penalty)]
        if params.repetition_penalty != 1.0
        else []
    )
    if params.no_repeat_ngram_size:
        processors.append(NoRepeatNGramLogitsProcessor(params.no_repeat_ngram_size))
    if bad_words_ids:
        processors.append(NoBadWordsLogitsProcessor(bad_words_ids, eos_token_id=list(eos_ids)))
    positions = (mask.long().cumsum(-1) - 1).clamp(min=0)
    out = model(
        input_ids=seq, attention_mask=mask, position_ids=positions, use_cache=True, logits_to_keep=1
    )
    cache, last_pos = out.past_key_values, positions[:, -1]
    active = list(range(len(seq)))  # original row index of each batch position
    new: list[list[int]] = [[] for _ in active]
    eos_list = sorted(eos_ids)
    for step in range(params.max_new_tokens):
        logits = out.logits[:, -1, :].float()
        for proc in processors:
            logits = proc(seq, logits)
        if step < params.min_new_tokens:
            logits[:, eos_list] = float("-inf")
        token = _pick(logits, params, rng)
        for pos, t in enumerate(token.tolist()):
            new[active[pos]].append(t)
        ended = [new[r][-1] in eos_ids for r in active]
        if step + 1 >= params.min_new_tokens:
            every = triggers is None or step + 1 == max(params.min_new_tokens, 1)
            asked = [
                p
                for p in range(len(active))
                if not ended[p] and (every or new[active[p]][-1] in triggers)
            ]
            if asked:
                for p, done in zip(asked, finished([new[active[p]] for p in asked])):
                    ended[p] = ended[p] or done
        if all(ended) or step + 1 == params.max_new_tokens:
            break
        keep = [p for p, e in enumerate(ended) if not e]
        seq = torch.cat([seq, token[:, None]], dim=-1)
        mask = torch.cat([mask, mask.new_ones((len(mask), 1))], dim=-1)
        last_pos = last_pos + 1
        if len(keep) < len(active):
            idx = torch.tensor(keep, device=seq.device)
            cache.batch_select_indices(idx)
            seq, mask, last_pos, token = seq[idx], mask[idx], last_pos[idx], token[idx]
            active = [active[p] for p in keep]
        out = model(
            input_ids=token[:, None],
            attention_mask=mask,
            position_ids=last_pos[:, None],
            past_key_values=cache,
            use_cache=True,
        )
    return new


@torch.inference_mode()
def row_alone(
    model,
    ids: list[int],
    max_new: int,
    params: GenerationParams,
    eos_ids: set[int],
    finished: Callable[[list[int]], bool],
    seed: int,
    bad_words_ids=None,
) -> list[int]:
    """One request decoded alone, by the model's own forward and cache, with the
    per-request draws of issue 63 (row_sampling) and transformers' own processors over
    the row's own tokens (repetition penalty, n-gram bans, bad words): what
    synth.generation.row_decode must write for it in any batch. Every token is
    text-tested (no triggers)."""
    from synth.generation.row_sampling import pick, uniforms

    seq = torch.tensor([ids])
    out = model(input_ids=seq, use_cache=True)
    new: list[int] = []
    processors = (
        [RepetitionPenaltyLogitsProcessor(params.repetition_penalty)]
        if params.repetition_penalty != 1.0
        else []
    )
    if params.no_repeat_ngram_size:
        processors.append(NoRepeatNGramLogitsProcessor(params.no_repeat_ngram_size))
    if bad_words_ids:
        processors.append(NoBadWordsLogitsProcessor(bad_words_ids, eos_token_id=list(eos_ids)))
    for count in range(max_new):
        logits = out.logits[:, -1, :].float()
        for proc in processors:
            logits = proc(seq, logits)
        if count < params.min_new_tokens:
            logits[:, sorted(eos_ids)] = float("-inf")
        u = uniforms(torch.tensor([seed]), torch.tensor([count]))
        token = int(pick(logits, params, u)[0])
        new.append(token)
        if token in eos_ids or len(new) == max_new:
            break
        if len(new) >= max(params.min_new_tokens, 1) and finished(new):
            break
        seq = torch.cat([seq, torch.tensor([[token]])], dim=-1)
        out = model(input_ids=seq[:, -1:], past_key_values=out.past_key_values, use_cache=True)
    return new
