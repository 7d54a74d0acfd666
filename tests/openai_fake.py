"""A small OpenAI-compatible server on loopback that misbehaves on request: for the
engine's retry, backoff, timeout and failure tests (the real server is in the e2e test).

`faults` is consumed one per request: an int is an HTTP status to answer with, a float
a delay in seconds before a normal answer, "drop" closes the connection unanswered.
Normal answers continue the prompt with " Reply N." and report token usage."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeEndpoint:
    def __init__(self, faults=(), models=("fake-model",)):
        self.faults, self.models = list(faults), list(models)
        self.requests: list[dict] = []
        self.model_lists = 0
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):  # /models: counted apart, so faults stay with the POSTs
                fake.model_lists += 1
                self._send(200, {"data": [{"id": m} for m in fake.models]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fault = fake._record(self, body)
                if fault == "drop":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if isinstance(fault, int):
                    # as some servers do, the error echoes what it was sent
                    echo = {"message": f"injected; request was {json.dumps(body)}"}
                    self._send(fault, {"error": echo}, {"Retry-After": "0"})
                    return
                if isinstance(fault, float):
                    threading.Event().wait(fault)
                n = len(fake.requests)
                text = f" Reply {n}."
                choice = (
                    {"message": {"role": "assistant", "content": text}}
                    if self.path.endswith("/chat/completions")
                    else {"text": text}
                )
                usage = {"prompt_tokens": 7, "completion_tokens": 3}
                self._send(200, {"choices": [choice], "usage": usage})

            def _send(self, status, doc, headers=None):
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _record(self, handler, body):
        with self.lock:
            self.requests.append(
                {"path": handler.path, "body": body, "auth": handler.headers.get("Authorization")}
            )
            return self.faults.pop(0) if self.faults else None

    def close(self):
        self.server.shutdown()
        self.server.server_close()
