"""`hrsynth serve`'s server with a scripted engine: the OpenAI engine's requests come
back as the engine's continuations, concurrent requests are decoded in shared batches."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from synth.generation.openai_engine import OpenAIEngine
from synth.generation.params import params_from
from synth.generation.server import make_server
from tests.scripted import ScriptedChat


class CountingEngine(ScriptedChat):
    def __init__(self):
        self.batches = []

    def continue_prompts(self, prompts, params, seed):
        self.batches.append(list(prompts))
        return [f" <{len(p)}>" for p in prompts], [2] * len(prompts), [len(p) for p in prompts]


@pytest.fixture
def served():
    engine = CountingEngine()
    server = make_server(engine, "scripted", "127.0.0.1", 0, max_batch=8, wait_s=0.2)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield engine, OpenAIEngine("openai:scripted", {"base_url": url, "concurrency": 8})
    server.shutdown()
    server.server_close()


def test_completions_and_chat_come_back_from_the_engine(served):
    engine, client = served
    client.check_reachable()
    texts, generated, read = client.continue_prompts(["abc", "abcdef"], params_from(), 0)
    assert texts == [" <3>", " <6>"] and generated == [2, 2] and read == [3, 6]
    opening = client.chat_prompt([{"role": "user", "content": "U"}])
    (text,), _, _ = client.continue_prompts([opening + "So far"], params_from(), 0)
    expected = engine.chat_prompt([{"role": "user", "content": "U"}]) + "So far"
    assert text == f" <{len(expected)}>"  # the reply so far was continued, not restarted


def test_concurrent_requests_share_batches(served):
    engine, client = served
    prompts = [f"prompt {i}" for i in range(8)]
    with ThreadPoolExecutor(2) as pool:  # two actors at once
        list(pool.map(lambda _: client.continue_prompts(prompts, params_from(), 0), range(2)))
    assert sum(len(b) for b in engine.batches) == 16 and len(engine.batches) < 16


class ParamsEngine(CountingEngine):
    def continue_prompts(self, prompts, params, seed):
        self.params = params
        return super().continue_prompts(prompts, params, seed)


def test_the_slot_stopping_rule_travels_to_hrsynth_serve_only():
    engine = ParamsEngine()
    server = make_server(engine, "scripted", "127.0.0.1", 0, max_batch=8, wait_s=0.0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        client = OpenAIEngine("openai:scripted", {"base_url": url})
        client.continue_prompts(["abc"], params_from("default", {"sentences_per_slot": 3}), 0)
        assert (engine.params.sentences_per_slot, engine.params.paragraphs_per_slot) == (3, 1)
    finally:
        server.shutdown()
        server.server_close()


def test_an_other_endpoint_gets_plain_openai_requests():
    from tests.openai_fake import FakeEndpoint

    fake = FakeEndpoint()
    try:
        OpenAIEngine("openai:m", {"base_url": fake.url}).continue_prompts(["abc"], params_from(), 0)
        assert "hrsynth" not in fake.requests[0]["body"] and fake.model_lists == 1
    finally:
        fake.close()


def test_a_burst_longer_than_the_wait_is_decoded_as_one_batch():
    """12 requests 50 ms apart (550 ms in all) against a 150 ms wait: the batch waits
    while requests keep coming. A window fixed at the first request decodes 3 or more
    batches here, one after the other."""
    from synth.generation.server import Batcher

    engine = CountingEngine()
    batcher = Batcher(engine, max_batch=64, wait_s=0.15)
    with ThreadPoolExecutor(12) as pool:
        futures = []
        for i in range(12):
            futures.append(pool.submit(batcher.submit, f"p{i}", params_from(), 0))
            threading.Event().wait(0.05)
        assert all(f.result()[0] for f in futures)
    assert sum(len(b) for b in engine.batches) == 12 and len(engine.batches) <= 2
