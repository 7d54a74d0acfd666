"""A small OpenAI-compatible server in front of an in-process engine (`hrsynth serve`).

One model copy serves every generation actor; requests that arrive together are decoded
as one batch. An engine that batches continuously (llama.cpp's slots) is handed each
batch as soon as it has free slots, beside the batches decoding, so a short request does
not wait for a long one to finish; the other engines decode one batch after another. It
speaks the subset hrsynth's OpenAI engine uses: GET /v1/models, POST /v1/completions and
POST /v1/chat/completions (with `continue_final_message`), token counts in `usage`.
Requests batched together share one sampling seed (the first one's). A request may carry
`hrsynth: {sentences_per_slot, paragraphs_per_slot}`, so a slot stops where the in-process
engine stops it instead of running to max_tokens. A list of prompts gets one choice per
prompt, as the OpenAI API answers.

Limits an operator expects (`Limits`): a body over `max_body_bytes` is refused unread
(413), and so is one framed by Transfer-Encoding (400: with a Content-Length beside it,
a request-smuggling shape); an empty prompt or a lone surrogate is bad input (400); `max_tokens` outside [1, max_tokens] is refused (400); so is a prompt past the
model's context or `max_prompt_tokens`, and a request whose prompts with their max_tokens
pass `max_request_tokens` (the work bounds measured per backend, `bounds_for`); the queue of waiting
prompts is bounded (429 with Retry-After when full); a request that waits longer than
`request_timeout_s` gets 504 and its prompts are dropped if not yet decoding; a client
that disconnects has its waiting prompts dropped, and a batch decoding stops once all
its clients have left (synth.cancel: hf and ct2 stop their rows, llama.cpp
starts no more of them); a connection that sends nothing for
`socket_timeout_s` is closed; with `api_key` set, requests need
`Authorization: Bearer KEY` (401 otherwise).
"""

import hmac
import json
import math
import queue
import re
import socket
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from synth import ConfigError
from synth.cancel import cancel_when
from synth.generation.engine import checked_continuations
from synth.generation.params import OPTIONAL, GenerationParams, request_fields
from synth.generation.protocol import OWNER, STOPPING
from synth.typed import check

# A served slot is cut by the client (its rollout trims to sentences): generate up to
# max_tokens, stopping only at a paragraph break, unless the client says when its slot
# is finished (STOPPING, which hrsynth's OpenAI engine sends to this server only).
SERVED = GenerationParams(sentences_per_slot=1000, paragraphs_per_slot=1)
BURST_WAITS = 20  # a batch waits at most this many `wait_s` for the rest of a burst


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 1 << 20
    max_tokens: int = 2048
    max_queue: int = 256  # prompts waiting to be decoded
    request_timeout_s: float = 300.0
    socket_timeout_s: float = 30.0
    read_deadline_s: float = 30.0  # the whole request read, from its first byte
    max_connections: int = 64  # open at once; more get 503 and are closed
    api_key: str | None = None
    # The work a request may ask for, in tokens (None: no bound but the context): its
    # longest prompt, and its prompts with their max_tokens together (bounds_for).
    max_prompt_tokens: int | None = None
    max_request_tokens: int | None = None
    # The work in hand, in tokens (prompts waiting or decoding, with their max_tokens): a
    # request past it gets 429 while the server is busy. ct2 took 30 prompts at its bound
    # and answered each 504 after 300 s, having finished none (issue 94).
    max_work_tokens: int | None = None


BOUNDS_FILE = "serve_bounds.yaml"


def bounds_for(backend: str) -> dict:
    """The measured bounds of `backend` (synth/data/serve_bounds.yaml): the longest prompt
    it answers within the deadline on 2 cores, and a request's tokens in all."""
    from synth import DATA_DIR
    from synth.io.files import read_yaml

    bounds = read_yaml(DATA_DIR / BOUNDS_FILE, "serve bounds")["backends"]
    return bounds.get(backend, bounds["default"])


class Rejected(Exception):
    """A request answered with an error status (and a fixed message)."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.headers = status, headers or {}


@dataclass
class Pending:
    prompt: str
    params: GenerationParams
    seed: int
    done: threading.Event = field(default_factory=threading.Event)
    result: tuple | None = None
    error: str | None = None
    cancelled: bool = False  # the client left or timed out: not decoded if not started
    work: int = 0  # tokens it holds of the server's work in hand (its prompt and max_tokens)
    settled: bool = False  # its work was given back (done, or dropped while waiting)


def _number(body: dict, name: str, default, kind=float):
    """A request field as a number, or a 400 naming it."""
    value = body.get(name, default)
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Rejected(400, f"{name} must be a number")
    if not math.isfinite(value):  # JSON's NaN and Infinity, which Python's parser reads
        raise Rejected(400, f"{name} must be a finite number")
    if kind is int and value != int(value):
        raise Rejected(400, f"{name} must be a whole number")
    return kind(value)


def params_of(
    body: dict, max_tokens: int = Limits.max_tokens, sampling=frozenset({"min_p"})
) -> GenerationParams:
    """The request's sampling parameters, the fields GenerationParams marks as a
    request's (synth.generation.params.request_fields), checked against its own ranges
    (synth.typed: the ones generate and deidentify take), a 400 naming the field for a
    value of the wrong type or out of range; `sampling`: the optional features the
    engine behind the server honours (its backend's SAMPLING): one it lacks set is a 400
    too, never silently ignored."""
    wanted = _number(body, "max_tokens", 16, int)
    if not 1 <= wanted <= max_tokens:
        raise Rejected(400, f"max_tokens must be in [1, {max_tokens}]")
    values = {
        name: _number(body, name, neutral, type(neutral))
        for name, neutral in request_fields().items()
    }
    try:
        check(GenerationParams, values)
        for name, off in OPTIONAL.items():
            if name in values and values[name] != off and name not in sampling:
                raise ConfigError(f"{name} is not supported by the engine this server runs")
    except ConfigError as e:
        raise Rejected(400, str(e)) from None
    stopping = body.get(OWNER) or {}
    if not isinstance(stopping, dict):
        raise Rejected(400, f"{OWNER} must be an object")
    temperature = values.pop("temperature")
    return replace(
        SERVED,
        **values,
        max_new_tokens=wanted,
        do_sample=temperature > 0,
        temperature=temperature if temperature > 0 else 1.0,
        **{k: max(1, _number(stopping, k, 1, int)) for k in STOPPING if k in stopping},
    )


def seed_of(body: dict) -> int:
    """The request's seed (0 when absent), or a 400 naming it."""
    return _number(body, "seed", 0, int) % 2**32


def _check_text(texts) -> None:
    """A 400 for text JSON can carry but UTF-8 cannot (a lone surrogate, "\\ud800"): the
    tokenizer failed on it and the connection closed with no answer."""
    for text in texts:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise Rejected(400, "the text holds a lone surrogate (not Unicode text)") from None


def check_context(engine, prompts: list[str], max_new_tokens: int, limits=None) -> None:
    """A 400 for a prompt that with max_tokens exceeds the model's context (such prompts
    took this machine to 22.6 GB), for one longer than `limits.max_prompt_tokens`, and
    for a request whose prompts and max_tokens together exceed
    `limits.max_request_tokens` (issue 84: 8,188 tokens on llama.cpp, within the context,
    got no answer in 300 s and held the server; four prompts of 2,000 words in one
    request did the same). A token is at least one byte, so only prompts whose bytes
    could exceed a bound are tokenized."""
    context = engine.max_context or None
    longest = getattr(limits, "max_prompt_tokens", None)
    total = getattr(limits, "max_request_tokens", None)
    bounds = [b for b in (context, longest and longest + max_new_tokens) if b]
    each = min(bounds) if bounds else None  # a prompt's tokens with its max_tokens
    in_bytes = sum(len(p.encode()) for p in prompts) + len(prompts) * max_new_tokens
    count_all = bool(total) and in_bytes > total
    asked = len(prompts) * max_new_tokens
    for prompt in prompts:
        could = each is not None and len(prompt.encode()) + max_new_tokens > each
        tokens = engine.prompt_tokens(prompt) if could or count_all else None
        if tokens is None:
            count_all = False  # an engine that cannot count: its context decides
            continue
        asked += tokens
        if context and tokens + max_new_tokens > context:
            raise Rejected(
                400,
                f"the prompt is {tokens} tokens; with max_tokens {max_new_tokens} it exceeds "
                f"the model's context of {context} tokens",
            )
        if longest and tokens > longest:
            raise Rejected(
                400,
                f"the prompt is {tokens} tokens; this server answers prompts of at most "
                f"{longest} tokens (serve --max-prompt-tokens)",
            )
    if count_all and asked > total:
        raise Rejected(
            400,
            f"the request's {len(prompts)} prompts and their max_tokens take {asked} tokens; "
            f"this server takes at most {total} a request (serve --max-request-tokens): "
            "send fewer or shorter prompts",
        )


class Batcher:
    """Collects requests until none has come for `wait_s` (or `max_batch` of them, or
    BURST_WAITS × wait_s since the first) and decodes the ones with the same parameters in
    one engine call. A client's burst (a rollout sends a whole slot's prompts at once)
    arrives over more than one `wait_s` when it is large; a window fixed at the first
    request would cut it in two batches decoded one after the other."""

    def __init__(
        self,
        engine,
        max_batch: int = 32,
        wait_s: float = 0.02,
        max_queue: int = 256,
        max_work_tokens: int | None = None,
    ):
        self.engine, self.max_batch, self.wait_s = engine, max_batch, wait_s
        self.max_work_tokens, self.work_in_hand = max_work_tokens, 0
        # Prompts waiting to be decoded, at most `max_queue`; a prompt whose client left
        # or timed out is taken out at once, so dead entries never hold the room while a
        # long batch decodes.
        self.max_queue = max_queue
        self.waiting: deque[Pending] = deque()
        self.arrived = threading.Condition()
        # A continuous engine decodes up to `slots` prompts at once across calls; prompts
        # past them wait here (counted by max_queue, dropped when their client leaves).
        self.free = threading.Semaphore(engine.slots) if engine.continuous else None
        threading.Thread(target=self._loop, daemon=True).start()

    def enqueue(self, prompts: list[str], params: GenerationParams, seed: int) -> list[Pending]:
        """The prompts queued, all or none: 400 for more than the queue can ever hold, 429
        (nothing queued) when it has no room for all of them now, or when their work in
        tokens would take the work in hand past `max_work_tokens` (a server with none in
        hand takes any request its bounds let through)."""
        if len(prompts) > self.max_queue:
            raise Rejected(400, f"a request may hold at most {self.max_queue} prompts")
        jobs = [Pending(p, params, seed, work=self._work(p, params)) for p in prompts]
        work = sum(j.work for j in jobs)
        with self.arrived:
            if len(self.waiting) + len(jobs) > self.max_queue:
                raise Rejected(429, "the server is busy", {"Retry-After": "1"})
            bound = self.max_work_tokens
            if bound and self.work_in_hand and self.work_in_hand + work > bound:
                raise Rejected(
                    429,
                    f"the server is busy: {self.work_in_hand:,} tokens of work in hand, and "
                    f"this request's {work:,} would pass its {bound:,} (serve "
                    "--max-work-tokens); retry later",
                    {"Retry-After": "5"},
                )
            self.work_in_hand += work
            self.waiting.extend(jobs)
            self.arrived.notify()
        return jobs

    def _work(self, prompt: str, params: GenerationParams) -> int:
        """A prompt's tokens with its max_tokens, counted only under a work bound; an
        engine that cannot count is charged its bytes (a token is at least one)."""
        if not self.max_work_tokens:
            return 0
        counted = self.engine.prompt_tokens(prompt)
        return (len(prompt.encode()) if counted is None else counted) + params.max_new_tokens

    def _settle(self, jobs) -> None:
        """Give back the work of `jobs` (decoded, or dropped): once each."""
        with self.arrived:
            for job in jobs:
                if not job.settled:
                    job.settled = True
                    self.work_in_hand -= job.work

    def cancel(self, jobs: list[Pending]) -> None:
        """Drop `jobs` (their client left or timed out): those still waiting leave the
        queue now; a batch decoding stops once all its jobs are cancelled."""
        with self.arrived:
            for job in jobs:
                job.cancelled = True
            dropped = [j for j in self.waiting if j.cancelled]
            self.waiting = deque(j for j in self.waiting if not j.cancelled)
        self._settle(dropped)

    def submit(self, prompt: str, params: GenerationParams, seed: int) -> tuple:
        (job,) = self.enqueue([prompt], params, seed)
        job.done.wait()
        if job.error:
            raise RuntimeError(job.error)
        return job.result

    def _loop(self) -> None:
        while True:
            batch = [self._next(None)]
            last_call = time.monotonic() + BURST_WAITS * self.wait_s
            while len(batch) < self.max_batch:
                wait = min(self.wait_s, last_call - time.monotonic())
                try:
                    batch.append(self._next(max(0.0, wait)))
                except queue.Empty:
                    break
            groups: dict[str, list[Pending]] = {}
            for job in batch:
                if job.cancelled:  # its client is gone: nobody reads the result
                    self._release(1)
                    self._settle([job])
                    job.done.set()
                    continue
                groups.setdefault(json.dumps(job.params.to_dict(), sort_keys=True), []).append(job)
            for jobs in groups.values():
                if self.free is not None:  # beside the calls decoding; their slots freed when done
                    threading.Thread(target=self._run, args=(jobs,), daemon=True).start()
                else:
                    self._run(jobs)

    def _next(self, timeout: float | None) -> Pending:
        """The next waiting prompt; on a continuous engine only once a slot is free for it
        (queue.Empty when none comes, or no slot frees, within `timeout`)."""
        if self.free is not None and not self.free.acquire(timeout=timeout):
            raise queue.Empty
        with self.arrived:
            if self.arrived.wait_for(lambda: self.waiting, timeout):
                return self.waiting.popleft()
        self._release(1)
        raise queue.Empty

    def _release(self, count: int) -> None:
        if self.free is not None:
            self.free.release(count)

    def _run(self, jobs: list[Pending]) -> None:
        try:
            # once every client of the batch has left, the engine stops its rows
            with cancel_when(lambda: all(j.cancelled for j in jobs)):
                prompts = [j.prompt for j in jobs]
                texts, generated, read = checked_continuations(
                    self.engine,
                    prompts,
                    self.engine.continue_prompts(prompts, jobs[0].params, jobs[0].seed),
                )
            for j, t, g, r in zip(jobs, texts, generated, read):
                j.result = (t, g, r)
        except Exception as e:  # noqa: BLE001 (a failed batch answers 500; the server lives on)
            for j in jobs:
                j.error = f"{type(e).__name__}: {e}"
        self._release(len(jobs))
        self._settle(jobs)
        for j in jobs:
            j.done.set()


class CappedServer(ThreadingHTTPServer):
    """A thread per connection, at most `limits.max_connections` of them: one more is
    answered 503 and closed at once, so idle or slow clients cannot take every thread."""

    daemon_threads = True
    # The kernel's queue of connections not yet accepted (socketserver's default is 5): a
    # crowd of 30 clients overflowed it and some were reset before any status (issue 94).
    request_queue_size = 256

    def __init__(self, address, handler, limits: Limits):
        super().__init__(address, handler)
        self.open_slots = threading.BoundedSemaphore(limits.max_connections)

    def process_request(self, request, client_address):
        if not self.open_slots.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except Exception:
            self.open_slots.release()
            raise

    def handle_error(self, request, client_address):
        """A connection that failed outside a request's own handling. A client that hung
        up or was cut at the read deadline is nobody's error (socketserver printed a
        20-line traceback for each); anything else is one line on stderr."""
        error = sys.exc_info()[1]
        closed = isinstance(error, ValueError) and "closed" in str(error)  # a closed file
        if isinstance(error, OSError) or closed:  # the socket was gone when read or written
            return
        print(
            f"serve: a connection from {client_address[0]} failed "
            f"({type(error).__name__}: {str(error)[:120]})",
            file=sys.stderr,
            flush=True,
        )

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.open_slots.release()


BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    b"Connection: close\r\nContent-Length: 60\r\n\r\n"
    b'{"error": {"message": "too many open connections; retry"}}\n '
)


def make_server(
    engine, name: str, host: str, port: int, max_batch: int, wait_s: float, limits=Limits(),
    sampling=frozenset({"min_p"}),
):  # fmt: skip
    """A ThreadingHTTPServer serving `engine` as model `name` (not started); `sampling`:
    the optional decoding features its backend honours (SAMPLING). What a request needs
    is loaded here, before the first one: the engine counts a prompt's tokens once (its
    tokenizer; llama.cpp's loaded lazily, and 28 of 30 cold requests failed importing it
    at once, issue 94)."""
    counts = getattr(engine, "prompt_tokens", None)
    if counts is not None:
        counts("ready")
    server = CappedServer((host, port), Handler, limits)
    server.engine, server.model_name, server.limits = engine, name, limits
    server.sampling = sampling
    server.batcher = Batcher(engine, max_batch, wait_s, limits.max_queue, limits.max_work_tokens)
    return server


class Handler(BaseHTTPRequestHandler):
    """One connection; the engine, batcher, name and limits are the server's."""

    def setup(self):
        self.timeout = self.server.limits.socket_timeout_s  # one that sends nothing closes
        super().setup()

    def handle_one_request(self):
        """One request, read within `read_deadline_s` of its start however slowly its
        bytes come (the socket timeout is per read: a byte every 20 s kept a thread)."""
        self.reading = threading.Timer(self.server.limits.read_deadline_s, self._cut)
        self.reading.daemon = True
        self.reading.start()
        try:
            super().handle_one_request()
        finally:
            self.reading.cancel()

    def _cut(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def log_message(self, *args):  # one line per request would drown the job's log
        pass

    def do_GET(self):
        try:
            self._authorised()
        except Rejected as e:
            return self._error(e)
        if self.path.rstrip("/").endswith("/models"):
            models = [{"id": self.server.model_name, "object": "model", "owned_by": OWNER}]
            return self._send(200, {"object": "list", "data": models})
        self._send(404, {"error": {"message": "no such route"}})

    def do_POST(self):
        name, limits = self.server.model_name, self.server.limits
        try:
            self._authorised()
            body = self._body()
            self.reading.cancel()  # read in time: from here the request timeout applies
            if not isinstance(body.get("model", ""), str):
                raise Rejected(400, "model must be a string")
            prompts, chat = self._prompts(body)
            if body.get("model") not in (None, name):
                raise Rejected(404, f"the model served here is {name!r}")
            params = params_of(body, limits.max_tokens, self.server.sampling)
            check_context(self.server.engine, prompts, params.max_new_tokens, limits)
            jobs = self.server.batcher.enqueue(prompts, params, seed_of(body))
            results = self._wait(jobs)
        except Rejected as e:
            return self._error(e)
        except Exception as e:  # noqa: BLE001 (a request's failure is its 500, with a status)
            return self._error(self._failed(e))
        choices = [
            {"index": i, "finish_reason": "length"}
            | ({"message": {"role": "assistant", "content": t}} if chat else {"text": t})
            for i, (t, _, _) in enumerate(results)
        ]
        usage = {
            "prompt_tokens": sum(r for _, _, r in results),
            "completion_tokens": sum(g for _, g, _ in results),
        }
        self._send(200, {"model": name, "choices": choices, "usage": usage})

    def _authorised(self) -> None:
        key = self.server.limits.api_key
        if key is None:
            return
        given = self.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {key}".encode()):
            raise Rejected(401, "a valid 'Authorization: Bearer KEY' header is required")

    def _body(self) -> dict:
        limit = self.server.limits.max_body_bytes
        if self.headers.get("Transfer-Encoding") is not None:
            # With a Content-Length too, which one frames the body is ambiguous (request
            # smuggling, RFC 9112 6.1); chunked bodies are not read here at all.
            self.close_connection = True
            raise Rejected(400, "Transfer-Encoding is not accepted; send one Content-Length")
        if len(self.headers.get_all("Content-Length") or []) > 1:
            self.close_connection = True  # which one frames the body is ambiguous (smuggling)
            raise Rejected(400, "give one Content-Length header")
        given = self.headers.get("Content-Length")
        if given is None:
            self.close_connection = True
            raise Rejected(411, "a Content-Length header is required")
        # ASCII digits only: "-1" passed the size limit and read to the end, and "²" passed
        # str.isdigit() and then int() raised (issue 72)
        if not re.fullmatch(r"[0-9]+", given.strip()):
            self.close_connection = True
            raise Rejected(400, "Content-Length must be a whole number of bytes")
        length = int(given)
        if length > limit:
            self.close_connection = True  # the body is never read
            raise Rejected(413, f"the body is over {limit} bytes")
        try:
            body = json.loads(self.rfile.read(length))
        except (ValueError, OSError):
            raise Rejected(400, "the body is not JSON") from None
        except RecursionError:  # 100,000 '[' took the parser past Python's stack
            raise Rejected(400, "the body is nested too deeply") from None
        if not isinstance(body, dict):
            raise Rejected(400, "the body must be a JSON object")
        return body

    def _prompts(self, body: dict) -> tuple[list[str], bool]:
        path = self.path.rstrip("/")
        try:
            if path.endswith("/chat/completions"):
                messages = body["messages"]
                if (
                    not isinstance(messages, list)
                    or not messages
                    or not all(
                        isinstance(m, dict)
                        and isinstance(m.get("role"), str)
                        and isinstance(m.get("content"), str)
                        for m in messages
                    )
                ):
                    raise Rejected(400, "messages must be a list of {role, content} strings")
                if not isinstance(body.get("continue_final_message", False), bool):
                    raise Rejected(400, "continue_final_message must be true or false")
                messages = list(messages)
                reply_so_far = ""
                if body.get("continue_final_message") and messages[-1]["role"] == "assistant":
                    reply_so_far = messages.pop()["content"]
                _check_text(m["content"] for m in messages)
                return [self.server.engine.chat_prompt(messages) + reply_so_far], True
            if path.endswith("/completions"):
                prompt = body["prompt"]
                prompts = prompt if isinstance(prompt, list) else [prompt]
                if not prompts or not all(isinstance(p, str) for p in prompts):
                    raise TypeError
                if not all(prompts):
                    raise Rejected(400, "a prompt must not be empty")
                _check_text(prompts)
                return prompts, False
        except (KeyError, IndexError, TypeError):
            raise Rejected(400, "prompt (a string or a list of strings) or messages") from None
        raise Rejected(404, "no such route")

    def _wait(self, jobs: list[Pending]) -> list[tuple]:
        """The jobs' results; 504 past the timeout, nothing when the client left (its
        waiting prompts are dropped either way)."""
        timeout_s = self.server.limits.request_timeout_s
        deadline = time.monotonic() + timeout_s
        for job in jobs:
            while not job.done.wait(0.25):
                gone = self._client_gone()
                if gone or time.monotonic() > deadline:
                    self.server.batcher.cancel(jobs)
                    if gone:
                        self.close_connection = True
                        raise Rejected(499, "the client closed the connection")
                    raise Rejected(504, f"not answered within {timeout_s} s")
            if job.error:
                raise Rejected(500, "the engine failed on this batch")
        return [job.result for job in jobs]

    def _failed(self, error: Exception) -> Rejected:
        """A request that failed in hrsynth or the engine: a 500 naming the exception's
        type (never its message: it may quote the prompt), one line on the server's
        stderr. It closed the connection with no status (issue 94)."""
        print(
            f"serve: a request failed ({type(error).__name__}); answered 500",
            file=sys.stderr,
            flush=True,
        )
        return Rejected(500, f"the server failed on this request ({type(error).__name__})")

    def _client_gone(self) -> bool:
        try:
            self.connection.setblocking(False)
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True
        finally:
            self.connection.setblocking(True)
            self.connection.settimeout(self.timeout)

    def _error(self, e: Rejected) -> None:
        if e.status == 499:  # nobody to answer
            return
        self._send(e.status, {"error": {"message": str(e)}}, e.headers)

    def _send(self, status: int, doc: dict, headers: dict | None = None):
        data = json.dumps(doc).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client left while we answered
            self.close_connection = True
