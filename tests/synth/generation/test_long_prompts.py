"""A prompt longer than the model's context is a 400 on every real backend, before the
engine sees it (issue 72: on llama.cpp a 9,000-token prompt against SmolLM2's 8,192 came
back 200 with empty text and 0/0 usage, and grew the server from 1.3 to 12.5 GB)."""

import threading

import pytest
import requests

from synth.generation.server import Limits, make_server

# ~9,000 tokens of the embedded SmolLM2: over its 8,192.
LONG = "The employee asked about the schedule for next week. " * 900


@pytest.fixture(params=["smollm2_f32", "smollm2_ct2", "smollm2_llama"])
def engine(request):
    return request.getfixturevalue(request.param)


def test_a_prompt_over_the_context_is_a_400_and_never_reaches_the_engine(engine, monkeypatch):
    decoded = []
    real = engine.continue_prompts
    monkeypatch.setattr(
        engine, "continue_prompts", lambda *a, **k: decoded.append(a) or real(*a, **k)
    )
    assert engine.max_context == 8192  # SmolLM2's, whatever the backend reads it from
    server = make_server(engine, "m", "127.0.0.1", 0, 1, 0.0, Limits())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/completions"
    try:
        reply = requests.post(url, json={"prompt": LONG, "max_tokens": 8}, timeout=120)
        assert reply.status_code == 400, reply.text
        message = reply.json()["error"]["message"]
        assert "exceeds the model's context of 8192 tokens" in message
        assert decoded == []
        short = requests.post(url, json={"prompt": "Hello", "max_tokens": 2}, timeout=120)
        assert short.status_code == 200 and len(decoded) == 1
    finally:
        server.shutdown()
        server.server_close()
