"""Issue 74: the decode step is one function of device tensors. It compiles whole
(torch.compile fullgraph, no graph break) on the real model, the compiled step writes
the eager step's tokens, and the host reading the device every k steps writes the text
of reading it every step, with the next slot's work done on a host thread."""

import os
import random
import threading

import pytest
import torch

from synth.generation import row_step
from synth.generation.decode import Request
from synth.generation.params import params_from
from synth.generation.row_cache import RowCache, extend
from synth.generation.row_decode import _places, bucket_rows, decode_rows
from synth.generation.row_step import RowState, StepRule, StepRunner, compiled_step, decode_step
from synth.generation.seeds import request_seed
from tests.synth.generation.test_decode import tiny_model
from tests.synth.generation.test_row_cache import EOS, decoded, requests_for, stop_at_two_fours

PROMPTS = [
    "Dear HR team, I am writing about my",
    "Hello, my manager asked me to",
    "I would like to request parental leave from",
    "Payroll question:",
]


def prefilled(engine, params, cap: int = 24, bad=None):
    """Four rows of the real model prefilled with PROMPTS, live, their own seeds."""
    model = engine.model
    vocab = model.get_output_embeddings().weight.shape[0]
    ids = [engine.tokenizer(p, add_special_tokens=False).input_ids for p in PROMPTS]
    cache = RowCache(model, 4, 64)
    state = RowState.empty(4, vocab, cap, "cpu")
    rule = StepRule.of(params, engine._eos(), engine.triggers, vocab, "cpu", bad)
    state.logits[:] = extend(model, cache, [0, 1, 2, 3], ids)
    state.live[:] = True
    state.limits[:] = torch.tensor([cap, cap, 5, cap])  # row 2 reaches its limit early
    state.seeds[:] = torch.tensor([request_seed(3, r) for r in range(4)])
    return cache, state, rule


@torch.inference_mode()
def test_the_real_step_compiles_whole(smollm2_f32):
    """SmolLM2 float32: dynamo traces the whole step (forward, penalty, sampling, stop
    flags, cache writes) as one graph. A write through a boolean mask, a host read of a
    count or a width from host lengths would each break it."""
    params = params_from("default", {"min_new_tokens": 2})
    cache, state, rule = prefilled(smollm2_f32, params)
    explained = torch._dynamo.explain(decode_step)(smollm2_f32.model, cache, state, rule, 4, 64)
    assert (explained.graph_count, explained.graph_break_count) == (1, 0), explained.break_reasons


def test_the_step_with_n_gram_and_bad_word_bans_compiles_whole(smollm2_f32):
    """The bans are tensor work of fixed shapes: still one graph, no break."""
    from synth.generation.hf_engine import _word_ids

    params = params_from("default", {"no_repeat_ngram_size": 3})
    bad = _word_ids(smollm2_f32.tokenizer, ["the", "salary review"])
    cache, state, rule = prefilled(smollm2_f32, params, bad=bad)
    assert rule.is_bad is not None and rule.bad_sequences
    explained = torch._dynamo.explain(decode_step)(smollm2_f32.model, cache, state, rule, 4, 64)
    assert (explained.graph_count, explained.graph_break_count) == (1, 0), explained.break_reasons


@pytest.mark.slow
@pytest.mark.parametrize("overrides", [{"do_sample": False}, {"min_new_tokens": 2}])
def test_the_compiled_step_writes_the_eager_tokens(smollm2_f32, overrides):
    """SmolLM2 float32, greedy and seeded sampling: twenty steps compiled (inductor,
    fullgraph) write the tokens, counts, stop flags and lengths twenty eager steps
    write."""
    params = params_from("default", overrides)
    runs = []
    for step in (decode_step, compiled_step()):
        cache, state, rule = prefilled(smollm2_f32, params)
        with torch.inference_mode():
            for _ in range(20):
                step(smollm2_f32.model, cache, state, rule, 4, 64)
        runs.append((state.tokens.tolist(), state.counts.tolist(), state.live.tolist()))
        runs[-1] += (cache.device_lengths.tolist(),)
    assert runs[0] == runs[1]
    tokens, counts, live, _ = runs[0]
    assert counts[2] == 5 and not live[2]  # the limit stops a row on the device
    assert len({tuple(t[:5]) for t in tokens}) == 4  # four rows, four texts


def test_a_captured_step_needs_cuda():
    model = tiny_model()
    cache = RowCache(model, 2, 8)
    state = RowState.empty(2, 64, 4, "cpu")
    rule = StepRule.of(params_from("default", {}), EOS, None, 64, "cpu")
    with pytest.raises(ValueError, match="captured step needs a CUDA device"):
        StepRunner(model, cache, state, rule, "captured")
    with pytest.raises(ValueError, match="step mode 'fast'"):
        StepRunner(model, cache, state, rule, "fast")


def test_buckets_and_text_test_places():
    assert [bucket_rows(t, 48) for t in (1, 2, 3, 5, 17, 33, 48)] == [1, 2, 4, 8, 32, 48, 48]
    # triggers {4}: tested at the first allowed count (2) and after each 4, from the
    # count after the last read; never at the count where the row ended on the device
    assert _places([9, 4, 7, 4, 4], 0, 2, {4}, ended=False) == [2, 4, 5]
    assert _places([9, 4, 7, 4, 4], 2, 2, {4}, ended=False) == [4, 5]
    assert _places([9, 4, 7, 4, 4], 2, 2, {4}, ended=True) == [4]
    assert _places([9, 4, 7], 1, 1, None, ended=False) == [2, 3]
    assert _places([9, 7, 7, 4], 0, 2, {4}, ended=False) == [2, 4]  # 7 is no trigger


@pytest.mark.parametrize("mode", ["eager", pytest.param("compiled", marks=pytest.mark.slow)])
def test_reads_every_k_steps_write_the_text_of_every_step(mode, monkeypatch):
    """Rows finished by their text, by end-of-sequence and by their limit at every
    step between reads; the host reads once per k steps (steps = k × reads) and
    on_done runs on the host thread; every request writes what it writes alone with a
    read every step. Compiled (aot_eager here: the tiny model) too."""
    model = tiny_model()
    params = params_from("default", {"max_new_tokens": 16, "min_new_tokens": 2})
    requests = requests_for(20, random.Random(8))
    every_step = decoded(model, requests, params, rows_in_flight=5)
    fours = frozenset({4})  # the only token after which stop_at_two_fours can first stop
    assert len({len(t) for t in every_step.values()}) > 3
    threads = set()

    def follow(request, ids):
        threads.add(threading.current_thread().name)
        return []

    if mode == "compiled":  # the tiny model's step through dynamo, without inductor
        aot = torch.compile(decode_step, fullgraph=True, backend="aot_eager")
        monkeypatch.setattr(row_step, "_COMPILED", aot)
    for k in (3, 7):
        stats = {}
        got = decoded(
            model,
            requests,
            params,
            follow,
            rows_in_flight=5,
            read_every=k,
            step_mode=mode,
            stats=stats,
        )
        assert got == every_step, k
        tested_at_fours = decoded(
            model, requests, params, rows_in_flight=5, read_every=k, triggers=fours
        )
        assert tested_at_fours == every_step, k
        assert stats["steps"] == k * stats["reads"] and stats["reads"] > 2
    assert threads and all(name.startswith("on_done") for name in threads)


def test_on_done_failing_on_the_host_thread_stops_the_loop():
    model = tiny_model()
    params = params_from("default", {"max_new_tokens": 6})

    def broken(request, ids):
        raise RuntimeError("render failed")

    with pytest.raises(RuntimeError, match="render failed"):
        decode_rows(
            model,
            [Request(0, [5, 6, 7], 6, seed=1)],
            params,
            EOS,
            stop_at_two_fours,
            broken,
            read_every=2,
        )


def test_the_engine_line_names_its_step_and_reads(smollm2_f32):
    from synth.generation.hf_engine import READ_EVERY, STEP_MODE

    assert (smollm2_f32.step_mode, smollm2_f32.read_every) == (STEP_MODE["cpu"], READ_EVERY["cpu"])
    assert f"step {STEP_MODE['cpu']}, host reads every {READ_EVERY['cpu']} steps" in (
        smollm2_f32.line()
    )


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"ATEN_CPU_CAPABILITY": "avx2"}, "{default}_avx2"),
        ({"ATEN_CPU_CAPABILITY": "avx2", "TORCHINDUCTOR_CACHE_DIR": "/tmp/mine"}, "/tmp/mine"),
        ({"ATEN_CPU_CAPABILITY": "avx2", "TORCHINDUCTOR_CACHE_DIR": "{default}"}, "{default}_avx2"),
        ({}, "{default}"),
    ],
)
def test_a_forced_code_path_compiles_into_its_own_cache(env, expected, monkeypatch):
    """Forced onto AVX2 on an AVX-512 machine with the default inductor cache shared,
    the compiled step crashed: a forced run keeps its kernels apart, unless the user
    chose the cache."""
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    default = default_cache_dir()  # torch's: the temporary folder's torchinductor_<user>
    given = {name: value.format(default=default) for name, value in env.items()}
    monkeypatch.setattr(os, "environ", given)  # the process's own is left as it was
    monkeypatch.setattr(row_step, "_COMPILED", None)
    row_step.compiled_step()
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == expected.format(default=default)
