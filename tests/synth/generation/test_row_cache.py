"""Issue 63's engine on the CPU: a KV cache written in place gives the model's own
logits, a request writes the same tokens in any batch as alone, no slot is lost or
duplicated as rows are reused, and a slot that continues in its row writes what a fresh
prefill of its prompt would."""

import itertools
import random

import pytest
import torch
from transformers import Qwen2Config, Qwen2ForCausalLM

from synth.generation.decode import Request
from synth.generation.params import params_from
from synth.generation.row_cache import RowCache, extend, forward_step, supports
from synth.generation.row_decode import decode_rows
from synth.generation.row_sampling import uniforms
from synth.generation.seeds import request_seed
from tests.synth.generation.reference_loop import row_alone
from tests.synth.generation.test_decode import tiny_model

EOS = {63}


def tiny_qwen2():
    return tiny_model(Qwen2Config, Qwen2ForCausalLM, context=256)


@pytest.mark.parametrize("make", [tiny_model, tiny_qwen2])
def test_rows_written_in_place_give_the_model_s_own_logits(make):
    """Rows prefilled together at scattered places, one shortened and continued, then
    decoded together in place, one joining mid-decode: each row's logits are the
    model's forward over that row alone."""
    model = make()
    assert supports(model)
    rng = random.Random(3)
    cache = RowCache(model, rows=6, width=8)  # too narrow: it must grow
    held = {r: [rng.randrange(1, 60) for _ in range(rng.randrange(1, 40))] for r in (4, 1, 3)}
    rows = list(held)
    logits = extend(model, cache, rows, [held[r] for r in rows])
    cache.lengths[1] = 2  # shorten row 1 and continue it
    held[1] = held[1][:2] + [7, 8, 9]
    logits_1 = extend(model, cache, [1], [[7, 8, 9]])
    checks = [(list(held[r]), logits[i]) for i, r in enumerate(rows) if r != 1]
    checks.append((list(held[1]), logits_1[0]))
    for n in range(5):  # decode rows 0..4 in place; row 0 joins after two steps
        if n == 2:
            held[0] = [rng.randrange(1, 60) for _ in range(17)]
            checks.append((list(held[0]), extend(model, cache, [0], [held[0]])[0]))
        last = torch.tensor([11 + n + r for r in range(5)])
        feeding = torch.tensor([r in held for r in range(5)])
        cache.fit(int(cache.lengths[:5].max()) + 1)
        with torch.inference_mode():
            out = forward_step(model, cache, last, 5, int(cache.lengths[:5].max()) + 1)
        cache.device_lengths[:5] += feeding.long()
        cache.lengths[:5] = cache.device_lengths[:5].numpy()
        for r, ids_held in held.items():
            ids_held.append(11 + n + r)
            checks.append((list(ids_held), out[r]))
    for ids, got in checks:
        with torch.inference_mode():
            want = model(input_ids=torch.tensor([ids])).logits[0, -1].float()
        assert (got - want).abs().max() < 2e-3
    assert cache.lengths[1] == 10 and cache.lengths[0] == 20 and cache.lengths[5] == 0


def requests_for(n: int, rng: random.Random, max_new=(2, 14)) -> list[Request]:
    return [
        Request(
            i,
            [rng.randrange(1, 60) for _ in range(rng.randrange(1, 20))],
            rng.randrange(*max_new),
            seed=request_seed(7, i),
        )
        for i in range(n)
    ]


def stop_at_two_fours(_, lists):
    return [t.count(4) >= 2 for t in lists]


def decoded(model, requests, params, on_done=lambda *_: [], **kwargs):
    done = {}

    def record(request, ids):
        assert request.key not in done, f"request {request.key} came back twice"
        done[request.key] = ids
        return on_done(request, ids)

    decode_rows(model, requests, params, EOS, stop_at_two_fours, record, **kwargs)
    return done


@pytest.mark.parametrize(
    "overrides",
    [
        {"max_new_tokens": 16, "min_new_tokens": 3},
        {"max_new_tokens": 20, "repetition_penalty": 1.0, "top_p": 1.0, "temperature": 1.0},
        {"max_new_tokens": 12, "do_sample": False},
    ],
)
def test_a_request_writes_the_same_tokens_in_any_batch_as_alone(overrides):
    model = tiny_model()
    params = params_from("default", overrides)
    requests = requests_for(24, random.Random(2))
    alone = {
        r.key: row_alone(model, r.ids, r.max_new, params, EOS, lambda t: t.count(4) >= 2, r.seed)
        for r in requests
    }
    assert len({len(t) for t in alone.values()}) > 3  # rows end at different steps
    for rows in (1, 2, 5, None):
        assert decoded(model, requests, params, rows_in_flight=rows) == alone, rows
    shuffled = random.Random(0).sample(requests, len(requests))
    assert decoded(model, shuffled, params, rows_in_flight=8) == alone
    for every in (2, 5, 16):  # the host reads the device every few steps: the same text
        assert decoded(model, shuffled, params, rows_in_flight=6, read_every=every) == alone


def test_ten_thousand_slots_none_lost_none_duplicated_rows_reused():
    """10,161 slots of random lengths: 2,600 documents' first slots wait at once, and a
    finished slot adds its document's next one, half of them continuing in the same row.
    Each comes back once with exactly its own number of tokens, 64 rows at once."""
    model = tiny_model()
    params = params_from("default", {"max_new_tokens": 9, "repetition_penalty": 1.0})
    rng = random.Random(5)
    slots_of = {doc: rng.randrange(1, 8) for doc in range(2600)}
    limit_of = {}

    def slot(doc, k, before=()):
        ids = list(before) + [rng.randrange(1, 60) for _ in range(rng.randrange(1, 12))]
        request = Request((doc, k), ids, rng.randrange(1, 10), seed=doc * 8 + k)
        request.same_row = bool(before) and rng.random() < 0.5
        limit_of[request.key] = request.max_new
        return request

    def next_slot(request, ids):
        doc, k = request.key
        if k + 1 == slots_of[doc]:
            return []
        return [slot(doc, k + 1, (request.ids + ids)[-30:])]

    never_ends = params_from("default", {"max_new_tokens": 9, "repetition_penalty": 1.0})
    done = {}

    def record(request, ids):
        assert request.key not in done
        done[request.key] = ids
        return next_slot(request, ids)

    first = [slot(doc, 0) for doc in slots_of]
    decode_rows(
        model, first, never_ends, set(), lambda r, t: [False] * len(t), record, rows_in_flight=64
    )
    assert sum(slots_of.values()) >= 10_000 and len(done) == sum(slots_of.values())
    assert all(len(done[key]) == limit for key, limit in limit_of.items())
    assert params.max_new_tokens == 9


def test_a_slot_continued_in_its_row_writes_what_a_fresh_prefill_writes(monkeypatch):
    """A document's next slot whose prompt holds its last prompt and continuation: in the
    same row only the new tokens are prefilled (and counted as such), and the tokens are
    those of a fresh prefill (the reference, alone)."""
    from synth.generation import row_decode

    model = tiny_model()
    params = params_from("default", {"max_new_tokens": 10})
    fed = []
    real_extend = row_decode.extend

    def counting(model, cache, rows, ids):
        fed.append(sum(map(len, ids)))
        return real_extend(model, cache, rows, ids)

    monkeypatch.setattr(row_decode, "extend", counting)
    rng = random.Random(4)
    firsts = requests_for(6, rng, max_new=(4, 10))

    def runs(same_row):
        def follow(request, ids):
            if request.key >= 100:
                return []
            extra = [21, 22, 23][: 1 + request.key % 3]
            # the new prompt re-tokenizes the end of the last continuation differently
            tail = ids[:-1] + [ids[-1] % 50 + 1] if request.key % 2 else ids
            return [
                Request(
                    request.key + 100,
                    request.ids + tail + extra,
                    8,
                    seed=request_seed(7, request.key, 1),
                    same_row=same_row,
                )
            ]

        fed.clear()
        stats = {}
        out = decoded(model, firsts, params, follow, rows_in_flight=3, stats=stats)
        # what the engine reports as prefilled (the manifest's tokens_prefilled)
        assert stats["prefilled_tokens"] == sum(fed)
        return out, sum(fed)

    (fresh, fed_fresh), (continued, fed_continued) = runs(False), runs(True)
    assert continued == fresh
    for key in range(6):
        request = firsts[key]
        tail = fresh[key][:-1] + [fresh[key][-1] % 50 + 1] if key % 2 else fresh[key]
        ids = request.ids + tail + [21, 22, 23][: 1 + key % 3]
        want = row_alone(
            model, ids, 8, params, EOS, lambda t: t.count(4) >= 2, request_seed(7, key, 1)
        )
        assert fresh[key + 100] == want
    assert fed_continued < fed_fresh


def test_draws_come_from_the_seed_and_count_alone():
    seeds = torch.tensor([0, 1, request_seed(0, 5), request_seed(0, 5)])
    counts = torch.tensor([0, 0, 3, 3])
    u = uniforms(seeds, counts)
    assert u[2] == u[3] and u[0] != u[1] and ((0 <= u) & (u < 1)).all()
    many = uniforms(torch.full((20000,), 9), torch.arange(20000))
    assert abs(float(many.mean()) - 0.5) < 0.01  # 20,000 draws: sd of the mean 0.002
    assert request_seed(1, 2) != request_seed(2, 1)


class FreshPrefill:
    """The engine with every slot prefilled anew (no row continued): today's rollout."""

    def __init__(self, engine):
        self.engine = engine

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def continue_stream(self, first, params, on_result, seed):
        from dataclasses import replace

        def fresh(slots):
            return [replace(s, continues=False) for s in slots]

        self.engine.continue_stream(fresh(first), params, lambda *a: fresh(on_result(*a)), seed)


def test_the_real_model_writes_the_reference_tokens_per_call(smollm2_f32):
    """SmolLM2 float32 on the CPU, the project's sampling: continue_prompts writes, for
    each prompt, what the reference writes for it alone with the draws of its place."""
    from tests.synth.generation.test_stop_triggers import golden_texts

    assert smollm2_f32.in_place
    params = params_from("default", {"max_new_tokens": 24})
    written_as_the_reference(smollm2_f32, [t[:120] for t in golden_texts()[:6]], params)


def written_as_the_reference(engine, prompts, params, bad=None) -> list[str]:
    """continue_prompts' texts, each checked to be what the reference writes for its
    prompt alone with the draws of its place (seed 5)."""
    texts, counts, _ = engine.continue_prompts(prompts, params, 5)
    tok = engine.tokenizer
    for r, prompt in enumerate(prompts):
        ids = tok(prompt, add_special_tokens=False).input_ids

        def finished(new):
            return engine._finished([Request(None, [], 0, (2, 1))], [new])[0]

        max_new, eos = params.max_new_tokens, engine._eos()
        want = row_alone(engine.model, ids, max_new, params, eos, finished, request_seed(5, r), bad)
        assert texts[r] == tok.decode(want, skip_special_tokens=True) and counts[r] == len(want)
    return texts


def test_the_real_rollout_writes_the_same_tickets_in_any_batch_and_row_continued(smollm2_f32):
    """Four planned tickets through the job's own rollout (render): continued in their
    rows, they read as prefilled anew for each slot; and batches of 1 and 2 documents,
    and 3 rows in flight, write the same text as one batch of 4 (issue 64: a resumed run
    may change the batch size), and so does the host reading the device every 5 steps
    (issue 74)."""
    from synth.generation.render import render
    from tests.synth.generation.test_rollout import docs

    planned = docs(4)
    params = params_from("default", {"max_new_tokens": 20})

    def texts(engine, batch, rows=None, every=1):
        smollm2_f32.rows_in_flight, smollm2_f32.read_every = rows, every
        out = []
        for at in range(0, len(planned), batch):
            out += [r["text"] for r in render(planned[at : at + batch], engine, params, "plain", 3)]
        smollm2_f32.rows_in_flight, smollm2_f32.read_every = None, 1
        return out

    whole = texts(smollm2_f32, 4)
    assert whole == texts(FreshPrefill(smollm2_f32), 4)
    for batch, rows, every in ((1, None, 1), (2, 3, 1), (4, None, 5)):
        assert texts(smollm2_f32, batch, rows, every) == whole, (batch, rows, every)
    assert len(set(whole)) == 4


def test_a_half_precision_model_on_a_cpu_attends_in_float32():
    """torch's CPU attention in bf16 made a step 5x slower at 2,048 tokens than at 256
    (benchmarks/results/decode_steps.md): on a CPU the cache holds float32 keys and
    values, and a bf16 model's in-place logits stay those of its own forward."""
    model = tiny_model().to(torch.bfloat16)
    cache = RowCache(model, rows=2, width=8)
    assert cache.keys.dtype == cache.values.dtype == torch.float32
    ids = [[5, 9, 14, 3, 22, 41], [7, 2]]
    logits = extend(model, cache, [0, 1], ids)
    with torch.inference_mode():
        for row, held in enumerate(ids):
            own = model(torch.tensor([held])).logits[0, -1].float()
            assert torch.allclose(logits[row], own, atol=0.05), (logits[row] - own).abs().max()


BAD = [[5], [7, 9], [11, 12, 13]]  # one-token and longer bad words of the tiny vocabulary


@pytest.mark.parametrize(
    "overrides, bad",
    [
        ({"max_new_tokens": 16, "no_repeat_ngram_size": 2}, None),
        ({"max_new_tokens": 16, "no_repeat_ngram_size": 3, "do_sample": False}, None),
        ({"max_new_tokens": 16, "bad_words": ["x"]}, BAD),
        ({"max_new_tokens": 14, "no_repeat_ngram_size": 2, "bad_words": ["x"]}, BAD),
    ],
)
def test_n_gram_bans_and_bad_words_in_the_row_step_are_transformers_own(overrides, bad):
    """The row step bans what transformers' NoRepeatNGram and NoBadWords processors ban
    (the reference applies those processors): one decoder for every request but beam
    search's, in any batch."""
    model = tiny_model()
    params = params_from("default", overrides)
    requests = requests_for(16, random.Random(4))

    def alone(r):
        return row_alone(
            model, r.ids, r.max_new, params, EOS, lambda t: t.count(4) >= 2, r.seed, bad
        )

    want = {r.key: alone(r) for r in requests}
    for rows in (1, 5, None):
        assert decoded(model, requests, params, rows_in_flight=rows, bad_words_ids=bad) == want
    plain = {
        r.key: row_alone(
            model,
            r.ids,
            r.max_new,
            params_from("default", {"max_new_tokens": 16}),
            EOS,
            lambda t: t.count(4) >= 2,
            r.seed,
        )
        for r in requests
    }
    assert want != plain  # the bans changed what was written
    for r in requests:
        row = r.ids + want[r.key]
        if params.no_repeat_ngram_size == 2:  # no written token repeats a pair before it
            pairs = list(itertools.pairwise(row))
            for i in range(len(r.ids) - 1, len(pairs)):
                assert pairs[i] not in pairs[:i]
        if bad:
            assert 5 not in want[r.key]


def test_the_real_model_bans_what_transformers_bans(smollm2_f32):
    """SmolLM2 float32: continue_prompts with an n-gram ban and bad words writes, for
    each prompt, what transformers' processors let the reference write alone."""
    from synth.generation.hf_engine import _word_ids
    from tests.synth.generation.test_stop_triggers import golden_texts

    params = params_from("default", {"max_new_tokens": 24, "no_repeat_ngram_size": 2})
    params.bad_words = ["the", "and"]
    bad = _word_ids(smollm2_f32.tokenizer, params.bad_words)
    prompts = [t[:120] for t in golden_texts()[:4]]
    for text in written_as_the_reference(smollm2_f32, prompts, params, bad):
        assert " the " not in f" {text} "
