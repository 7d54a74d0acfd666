"""An engine behind an OpenAI-compatible HTTP endpoint: vLLM, SGLang, TGI, llama.cpp's
server, a team's gateway, a hosted model.

The plain style continues text with /v1/completions. The chat style is rendered by the
endpoint itself: `chat_prompt` wraps the messages in a marker that `continue_prompts`
unwraps into a /v1/chat/completions request, the document so far sent as the assistant's
unfinished reply (`continue_final_message`, vLLM's and SGLang's extension; plain OpenAI
answers after it instead). So the rollout stays what it is for every engine.

Requests run concurrently (`concurrency` per actor) under an optional requests-per-second
cap. 429, 5xx, timeouts and dropped connections are retried with exponential backoff and
full jitter (Retry-After honoured), `max_attempts` in all; a prompt that still fails comes
back as a FailedPrompt, which the rollout records, with the reason, as that row's error. The API key
is read from the environment variable the config names, never from the config file, and
never logged.
"""

import json
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from typing import Annotated

import requests
from pydantic import Field

from synth import ConfigError
from synth.generation.engine import EngineBase, FailedPrompt
from synth.generation.params import GenerationParams, refuse_unsupported
from synth.generation.protocol import OWNER, STOPPING

PREFIX = "openai:"
CHAT_MARK = "\x1echat-messages\x1e"  # never in generated text: a control character
RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


@dataclass
class Endpoint:
    """The config's `engine:` block (the model's name comes from `model: openai:NAME`)."""

    base_url: str = "http://127.0.0.1:8000/v1"
    api_key_env: str | None = None  # the variable holding the key; None: no key sent
    concurrency: Annotated[int, Field(ge=1)] = 8  # requests in flight per actor
    requests_per_s: Annotated[float | None, Field(gt=0)] = None  # cap per actor; None: no cap
    timeout_s: Annotated[float, Field(gt=0)] = 120.0
    max_attempts: Annotated[int, Field(ge=1)] = 6
    backoff_s: Annotated[float, Field(ge=0)] = 0.5  # first retry waits up to this, doubling
    backoff_cap_s: Annotated[float, Field(ge=0)] = 30.0


def is_endpoint_model(model: str) -> bool:
    return model.startswith(PREFIX)


class RequestFailed(Exception):
    """An endpoint gave up: its message is the status and a fixed reason, never the reply's
    body (a server may echo the prompt, which can hold private text)."""

    content_free = True


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "unknown status"


class OpenAIEngine(EngineBase):
    """The engine seam (synth.generation.engine.Engine) over HTTP."""

    def __init__(self, model: str, endpoint: Endpoint | dict | None = None):
        self.name = model.removeprefix(PREFIX)
        self.model_ref = PREFIX + self.name
        self.endpoint = endpoint if isinstance(endpoint, Endpoint) else Endpoint(**(endpoint or {}))
        self.base_url = self.endpoint.base_url.rstrip("/")
        self.session = requests.Session()
        key_env = self.endpoint.api_key_env
        if key_env:
            key = os.environ.get(key_env)
            if not key:
                raise ConfigError(f"engine.api_key_env: the variable {key_env} is not set")
            self.session.headers["Authorization"] = f"Bearer {key}"
        self._lock, self._next_slot = threading.Lock(), 0.0
        self._ours: bool | None = None  # whether the endpoint is `hrsynth serve`

    def chat_prompt(self, messages: list[dict]) -> str:
        return CHAT_MARK + json.dumps(messages) + CHAT_MARK

    def check_reachable(self) -> None:
        """One GET of /models: a wrong URL, key or model name fails here, on the driver."""
        try:
            reply = self.session.get(self.base_url + "/models", timeout=self.endpoint.timeout_s)
        except requests.RequestException as e:
            raise ConfigError(
                f"engine.base_url {self.base_url}: no OpenAI-compatible endpoint answers "
                f"({type(e).__name__}); start the server or fix the URL"
            ) from None
        if reply.status_code in (401, 403):
            raise ConfigError(
                f"engine.base_url {self.base_url} refused the key ({reply.status_code}); "
                "check engine.api_key_env"
            )
        if reply.ok:
            served = [m.get("id") for m in reply.json().get("data", [])]
            if served and self.name not in served:
                raise ConfigError(
                    f"model openai:{self.name}: the endpoint serves {served}; use one of them"
                )

    def _is_hrsynth_serve(self) -> bool:
        """Whether the endpoint is `hrsynth serve` (its /models say owned_by hrsynth),
        which takes the slot's stopping rule; asked once per engine."""
        if self._ours is None:
            try:
                reply = self.session.get(self.base_url + "/models", timeout=self.endpoint.timeout_s)
                models = reply.json().get("data", []) if reply.ok else []
                self._ours = any(m.get("owned_by") == OWNER for m in models)
            except (requests.RequestException, ValueError, AttributeError):
                self._ours = False
        return self._ours

    def continue_prompts(
        self, prompts: list[str], params: GenerationParams, seed: int
    ) -> tuple[list[str], list[int], list[int]]:
        refuse_unsupported(params, SAMPLING, "openai")
        self._is_hrsynth_serve()
        with ThreadPoolExecutor(max_workers=self.endpoint.concurrency) as pool:
            results = list(
                pool.map(lambda ip: self._one(ip[1], params, seed + ip[0]), enumerate(prompts))
            )
        texts, generated, read = zip(*results) if results else ((), (), ())
        return list(texts), list(generated), list(read)

    def _one(self, prompt: str, params: GenerationParams, seed: int) -> tuple[str, int, int]:
        path, body = self._request(prompt, params, seed)
        try:
            reply = self._post_with_retries(path, body)
        except RequestFailed as e:
            print(f"openai engine: a prompt failed after retries: {e}", file=sys.stderr)
            return FailedPrompt(f"the endpoint failed: {e}"), 0, 0
        choice = reply["choices"][0]
        text = choice["message"]["content"] if "message" in choice else choice["text"]
        usage = reply.get("usage") or {}
        return text or "", usage.get("completion_tokens") or 0, usage.get("prompt_tokens") or 0

    def _request(self, prompt: str, params: GenerationParams, seed: int) -> tuple[str, dict]:
        body = {
            "model": self.name,
            "max_tokens": params.max_new_tokens,
            "temperature": params.temperature if params.do_sample else 0.0,
            "top_p": params.top_p if params.do_sample else 1.0,
            "seed": seed,
            # Not in OpenAI's API; vLLM, SGLang and llama.cpp's server read them.
            "top_k": params.top_k if params.do_sample else -1,
            "repetition_penalty": params.repetition_penalty,
        }
        if params.min_p and params.do_sample:  # vLLM's and llama.cpp's servers take it
            body["min_p"] = params.min_p
        if self._ours:  # not OpenAI's API: only for an endpoint that says it takes it
            body[OWNER] = {k: getattr(params, k) for k in STOPPING}
        if prompt.startswith(CHAT_MARK):
            end = prompt.index(CHAT_MARK, len(CHAT_MARK))
            messages = json.loads(prompt[len(CHAT_MARK) : end])
            reply_so_far = prompt[end + len(CHAT_MARK) :]
            if reply_so_far:
                messages = [*messages, {"role": "assistant", "content": reply_so_far}]
                body |= {"continue_final_message": True, "add_generation_prompt": False}
            return "/chat/completions", body | {"messages": messages}
        return "/completions", body | {"prompt": prompt}

    def _post_with_retries(self, path: str, body: dict) -> dict:
        problem, retry_after = "", None
        for attempt in range(self.endpoint.max_attempts):
            if attempt:
                self._sleep_before_retry(attempt, retry_after)
            self._wait_for_rate_slot()
            try:
                reply = self.session.post(
                    self.base_url + path, json=body, timeout=self.endpoint.timeout_s
                )
            except (requests.Timeout, requests.ConnectionError) as e:
                problem, retry_after = type(e).__name__, None
                continue
            if reply.status_code in RETRY_STATUS:
                problem = f"HTTP {reply.status_code}"
                retry_after = reply.headers.get("Retry-After")
                continue
            if not reply.ok:  # 400, 401, 404, …: retrying does not help
                raise RequestFailed(f"HTTP {reply.status_code} ({_reason(reply.status_code)})")
            return reply.json()
        raise RequestFailed(f"{problem} on all {self.endpoint.max_attempts} attempts")

    def _sleep_before_retry(self, attempt: int, retry_after: str | None) -> None:
        wait = min(self.endpoint.backoff_cap_s, self.endpoint.backoff_s * 2 ** (attempt - 1))
        wait = random.uniform(0, wait)  # full jitter: actors do not retry in step
        if retry_after:
            try:  # the server's own wait, within the cap
                wait = max(wait, min(float(retry_after), self.endpoint.backoff_cap_s))
            except ValueError:
                pass  # an HTTP date: keep the backoff
        time.sleep(wait)

    def _wait_for_rate_slot(self) -> None:
        rate = self.endpoint.requests_per_s
        if not rate:
            return
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next_slot)
            self._next_slot = slot + 1.0 / rate
        time.sleep(max(0.0, slot - now))


# --- the backend surface (synth.generation.engine) ---------------------------------------

LABEL = "served endpoint"
SERVED = True  # runs `model: openai:NAME` only, and every such model
SAMPLING = frozenset({"min_p"})  # passed on; the rest is not in OpenAI's API


def check(spec, params: GenerationParams) -> None:
    return None  # what an endpoint takes is SAMPLING (backends.Backend.check)


def prepare(spec) -> None:
    OpenAIEngine(spec.model, spec.endpoint).check_reachable()


def build(spec) -> OpenAIEngine:
    return OpenAIEngine(spec.model, spec.endpoint)


def describe(spec) -> str:
    return f"{LABEL} {spec.model}"
