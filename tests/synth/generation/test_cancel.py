"""A served batch whose clients all left stops decoding (issue 64): each real engine on
the embedded SmolLM2, its call cancelled from the start, against the same call left to
run. Rows that would write up to 48 tokens (a slot of 1,000 sentences) stop at their
first stop test: hf within a sentence, ct2 at its first token; llama.cpp starts none of
its prompts. Outside a server's call nothing is cancelled."""

from dataclasses import replace

from synth.cancel import cancel_when, current
from synth.generation.engine import FailedPrompt
from synth.generation.params import params_from
from tests.synth.generation.engine_prompts import PROMPTS

LONG = replace(params_from(), max_new_tokens=48, sentences_per_slot=1000, paragraphs_per_slot=100)


def _both(engine):
    whole = engine.continue_prompts(PROMPTS, LONG, 0)
    with cancel_when(lambda: True):
        cut = engine.continue_prompts(PROMPTS, LONG, 0)
    return whole, cut


def test_outside_a_call_nothing_is_cancelled():
    assert current()() is False
    with cancel_when(lambda: True):
        assert current()() is True
    assert current()() is False


def test_hf_stops_its_rows_when_the_call_is_cancelled(smollm2_f32):
    whole, cut = _both(smollm2_f32)
    assert sum(whole[1]) >= 4 * sum(cut[1]) and max(cut[1]) < LONG.max_new_tokens
    assert cut[2] == whole[2]  # the prompts were read as before


def test_ct2_stops_at_the_first_token_when_the_call_is_cancelled(smollm2_ct2):
    whole, cut = _both(smollm2_ct2)
    assert sum(whole[1]) > 4 * len(PROMPTS)
    assert cut[1] == [1] * len(PROMPTS)


def test_llama_starts_no_prompt_when_the_call_is_cancelled(smollm2_llama):
    whole, cut = _both(smollm2_llama)
    assert not any(isinstance(t, FailedPrompt) for t in whole[0])
    assert all(isinstance(t, FailedPrompt) for t in cut[0]) and cut[1] == [0] * len(PROMPTS)
