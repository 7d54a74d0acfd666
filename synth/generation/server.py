"""A small OpenAI-compatible server in front of an in-process engine (`hrsynth serve`).

For a machine without vLLM or llama.cpp (no GPU, or no compiler): one model copy serves
every generation actor, requests that arrive together are decoded as one batch. It
speaks the subset hrsynth's OpenAI engine uses: GET /v1/models, POST /v1/completions and
POST /v1/chat/completions (with `continue_final_message`), token counts in `usage`.
Requests batched together share one sampling seed (the first one's). A request may carry
`hrsynth: {sentences_per_slot, paragraphs_per_slot}`, so a slot stops where the in-process
engine stops it instead of running to max_tokens.
"""

import json
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from synth.generation.params import GenerationParams

# A served slot is cut by the client (its rollout trims to sentences): generate up to
# max_tokens, stopping only at a paragraph break, unless the client says when its slot
# is finished (STOPPING, which hrsynth's OpenAI engine sends to this server only).
SERVED = GenerationParams(sentences_per_slot=1000, paragraphs_per_slot=1)
OWNER = "hrsynth"  # /v1/models' owned_by: how a client knows it may send STOPPING
STOPPING = ("sentences_per_slot", "paragraphs_per_slot")
BURST_WAITS = 20  # a batch waits at most this many `wait_s` for the rest of a burst


@dataclass
class Pending:
    prompt: str
    params: GenerationParams
    seed: int
    done: threading.Event = field(default_factory=threading.Event)
    result: tuple | None = None
    error: str | None = None


def params_of(body: dict) -> GenerationParams:
    temperature = float(body.get("temperature", 1.0))
    return replace(
        SERVED,
        max_new_tokens=int(body.get("max_tokens", 16)),
        do_sample=temperature > 0,
        temperature=temperature if temperature > 0 else 1.0,
        top_p=float(body.get("top_p", 1.0)),
        top_k=max(0, int(body.get("top_k", 0))),
        repetition_penalty=float(body.get("repetition_penalty", 1.0)),
        **{k: int(v) for k, v in (body.get(OWNER) or {}).items() if k in STOPPING},
    )


class Batcher:
    """Collects requests until none has come for `wait_s` (or `max_batch` of them, or
    BURST_WAITS × wait_s since the first) and decodes the ones with the same parameters in
    one engine call. A client's burst (a rollout sends a whole slot's prompts at once)
    arrives over more than one `wait_s` when it is large; a window fixed at the first
    request would cut it in two batches decoded one after the other."""

    def __init__(self, engine, max_batch: int = 32, wait_s: float = 0.02):
        self.engine, self.max_batch, self.wait_s = engine, max_batch, wait_s
        self.inbox: queue.Queue[Pending] = queue.Queue()
        threading.Thread(target=self._loop, daemon=True).start()

    def submit(self, prompt: str, params: GenerationParams, seed: int) -> tuple:
        job = Pending(prompt, params, seed)
        self.inbox.put(job)
        job.done.wait()
        if job.error:
            raise RuntimeError(job.error)
        return job.result

    def _loop(self) -> None:
        while True:
            batch = [self.inbox.get()]
            last_call = time.monotonic() + BURST_WAITS * self.wait_s
            while len(batch) < self.max_batch:
                wait = min(self.wait_s, last_call - time.monotonic())
                try:
                    batch.append(self.inbox.get(timeout=max(0.0, wait)))
                except queue.Empty:
                    break
            groups: dict[str, list[Pending]] = {}
            for job in batch:
                groups.setdefault(json.dumps(job.params.to_dict(), sort_keys=True), []).append(job)
            for jobs in groups.values():
                self._run(jobs)

    def _run(self, jobs: list[Pending]) -> None:
        try:
            texts, generated, read = self.engine.continue_prompts(
                [j.prompt for j in jobs], jobs[0].params, jobs[0].seed
            )
            for j, t, g, r in zip(jobs, texts, generated, read):
                j.result = (t, g, r)
        except Exception as e:  # noqa: BLE001 (a failed batch answers 500; the server lives on)
            for j in jobs:
                j.error = f"{type(e).__name__}: {e}"
        for j in jobs:
            j.done.set()


def make_server(engine, name: str, host: str, port: int, max_batch: int, wait_s: float):
    """A ThreadingHTTPServer serving `engine` as model `name` (not started)."""
    batcher = Batcher(engine, max_batch, wait_s)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # one line per request would drown the job's log
            pass

        def do_GET(self):
            if self.path.rstrip("/").endswith("/models"):
                models = [{"id": name, "object": "model", "owned_by": OWNER}]
                return self._send(200, {"object": "list", "data": models})
            self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self):
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                prompt, chat = self._prompt(body)
            except (ValueError, KeyError, TypeError) as e:
                return self._send(400, {"error": {"message": f"bad request: {e}"}})
            if body.get("model") not in (None, name):
                return self._send(404, {"error": {"message": f"model {body.get('model')!r}"}})
            try:
                text, generated, read = batcher.submit(
                    prompt, params_of(body), int(body.get("seed") or 0)
                )
            except RuntimeError as e:
                return self._send(500, {"error": {"message": str(e)}})
            choice = {"index": 0, "finish_reason": "length"}
            choice |= (
                {"message": {"role": "assistant", "content": text}} if chat else {"text": text}
            )
            usage = {"prompt_tokens": read, "completion_tokens": generated}
            self._send(200, {"model": name, "choices": [choice], "usage": usage})

        def _prompt(self, body: dict) -> tuple[str, bool]:
            if self.path.rstrip("/").endswith("/chat/completions"):
                messages = list(body["messages"])
                reply_so_far = ""
                if body.get("continue_final_message") and messages[-1]["role"] == "assistant":
                    reply_so_far = messages.pop()["content"]
                return engine.chat_prompt(messages) + reply_so_far, True
            if self.path.rstrip("/").endswith("/completions"):
                return str(body["prompt"]), False
            raise KeyError(f"no route {self.path}")

        def _send(self, status: int, doc: dict):
            data = json.dumps(doc).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return ThreadingHTTPServer((host, port), Handler)
