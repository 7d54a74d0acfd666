"""The llama.cpp engine: GGUF models as they are, decoded by llama.cpp's own server
running in this process (the `xllamacpp` bindings; a prebuilt wheel, no compiler).

Why it is here: it runs GGUF files as they are (the embedded SmolLM2 Q4_1: no
dequantisation, no conversion, no cache), its slots batch continuously, which is what
`hrsynth serve` needs (a short request does not wait for long ones), and its CUDA wheel
runs on GPU actors. On the AVX2-only CPU we measured it is not the fastest engine for a
whole run (benchmarks/results/speed_and_engines.md); `auto` picks by that table.

How a call runs: every prompt is its own request to the in-process server, all in flight
at once; the server's parallel slots decode them with continuous batching (a slot freed
by a short continuation takes the next prompt at once). With `cache_prompt` the server
keeps each slot's KV cache and sends a prompt to the slot holding its longest prefix, so
a document's next slot (its prompt is the previous prompt plus the text written since)
re-reads only the new tokens; `prompt_tokens_evaluated` counts what was read afresh.

Seeds: request i of a call samples with seed + i, so equal prompts in one call still get
their own text. With one slot the same prompts, parameters and seed give the same text
on one machine (the tests check it). With several, how the concurrent requests are
packed into each decoding step depends on thread timing, and llama.cpp's kernels round
differently by batch size: a rerun, or a resumed run, may write other words (a full test
suite under load once did). Other CPUs may write other text (other kernels).
"""

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from synth import ConfigError, cancel
from synth.generation.engine import EngineBase, FailedPrompt
from synth.generation.models import resolve_model
from synth.generation.params import GenerationParams, refuse_unsupported

# Parallel slots (prompts decoded together) and the tokens each holds. The server is sized
# to the calls it gets: as many slots as a call has prompts (a render batch's first call
# has one per document), up to MAX_SLOTS, each as long as the longest prompt and its slot
# need (a ticket's 100-600 tokens, a long CV's up to 2,500), within KV_TOKENS in all: f16
# KV of SmolLM2-135M takes 23 KB a token, so 65,536 tokens are 1.5 GB. Prompts past the
# slots wait in the server for one to free.
MAX_SLOTS = 64
CONTEXT_PER_SLOT = 1024
KV_TOKENS = 65536
MAX_CONTEXT_PER_SLOT = 16384
# Prompt states kept in RAM beyond the slots, so that a document whose slot was taken by
# another still finds its prefix (llama.cpp's host prompt cache).
PROMPT_CACHE_MIB = 1024


def _xllamacpp():
    try:
        import xllamacpp
    except ImportError:
        raise ConfigError(
            "backend llama needs the xllamacpp package; run `make install` "
            "(pip install xllamacpp==2026.10.11549) or set backend: ct2 or hf"
        ) from None
    return xllamacpp


def gguf_path(ref: str) -> Path:
    """The GGUF file of `ref` (the embedded model, a .gguf file, a folder holding one), or
    a ConfigError naming the engines that run a Hugging Face model."""
    source = resolve_model(ref)
    if not source.gguf_file:
        raise ConfigError(
            f"model {ref!r} is a Hugging Face model; backend llama runs GGUF files only: "
            "set backend: ct2 or hf, or point 'model' at a .gguf file"
        )
    return Path(source.location) / source.gguf_file


def check_params(params: GenerationParams, dtype: str = "auto") -> None:
    """Refuse, at config check, what llama.cpp's sampler cannot honour; each refusal names
    the field and the engines that can."""
    if dtype != "auto":
        raise ConfigError(
            f"dtype {dtype!r}: backend llama runs the GGUF file's own types; set dtype: auto "
            "(or write a GGUF of that type with the gguf package)"
        )
    refuse_unsupported(params, SAMPLING, "llama", ("hf",))


def request(
    prompt: str, params: GenerationParams, seed: int, context: int, cache: bool = True
) -> dict:
    """One completion request: GenerationParams in llama.cpp's names.

    repetition_penalty is llama.cpp's repeat_penalty over the whole context
    (repeat_last_n = the context's size), as Hugging Face applies it to every token before; greedy decoding
    (do_sample false) is temperature 0. A slot of one paragraph stops at a blank line."""
    body = {
        "prompt": prompt,
        "max_tokens": params.max_new_tokens,
        "temperature": params.temperature if params.do_sample else 0.0,
        "top_k": params.top_k,
        "top_p": params.top_p if params.do_sample else 1.0,
        "min_p": params.min_p if params.do_sample else 0.0,
        "repeat_penalty": params.repetition_penalty,
        "repeat_last_n": context,
        "seed": seed % 2**32,
        "cache_prompt": cache,
    }
    if params.paragraphs_per_slot == 1:
        body["stop"] = ["\n\n"]
    return body


@lru_cache(maxsize=8)
def trained_context(path: str) -> int | None:
    """The context length the GGUF file's metadata gives its architecture (None: none).
    Read from the header's key-value section alone, in milliseconds: gguf.GGUFReader
    parses the whole vocabulary and tensor table (3.5 s), which, asked for by the first
    requests of a server at once, held them 30 s."""
    import struct

    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    formats = {4: "<I", 5: "<i", 10: "<Q", 11: "<q", 2: "<H", 3: "<h"}

    with open(path, "rb") as f:

        def number(fmt: str) -> int:
            return struct.unpack(fmt, f.read(struct.calcsize(fmt)))[0]

        def text() -> str:
            return f.read(number("<Q")).decode("utf-8", errors="replace")

        def skip(kind: int) -> None:
            if kind in sizes:
                f.seek(sizes[kind], 1)
            elif kind == 8:
                f.seek(number("<Q"), 1)
            elif kind == 9:
                item, count = number("<I"), number("<Q")
                if item in sizes:
                    f.seek(sizes[item] * count, 1)
                else:
                    for _ in range(count):
                        skip(item)
            else:
                raise ValueError(f"GGUF value type {kind}")

        if f.read(4) != b"GGUF":
            return None
        number("<I")  # version
        number("<Q")  # tensors
        architecture = None
        for _ in range(number("<Q")):
            key, kind = text(), number("<I")
            if key == "general.architecture" and kind == 8:
                architecture = text()
            elif architecture and key == f"{architecture}.context_length" and kind in formats:
                return int(number(formats[kind]))
            else:
                skip(kind)
    return None


@lru_cache(maxsize=8)
def _chat_template(path: str) -> tuple:
    """(compiled chat template, BOS text, EOS text) from the GGUF file's own metadata,
    read and compiled once per file, not once per prompt."""
    import gguf
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    reader = gguf.GGUFReader(path)

    def text(key: str) -> str | None:
        field = reader.fields.get(key)
        return None if field is None else field.contents()

    template = text("tokenizer.chat_template")
    if not template:
        raise ConfigError(
            f"model {path} has no chat template; use prompt_style: plain with backend llama"
        )
    tokens = reader.fields["tokenizer.ggml.tokens"].contents()

    def token(key: str) -> str:
        index = text(key)
        return tokens[index] if index is not None else ""

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    compiled = env.from_string(template)
    return compiled, token("tokenizer.ggml.bos_token_id"), token("tokenizer.ggml.eos_token_id")


def _tokens_asked(text: str, generated: int, prompt_tokens: int) -> int:
    """A request's prompt tokens, read from llama.cpp's refusal when it did not fit."""
    if not isinstance(text, FailedPrompt):
        return prompt_tokens
    found = re.search(r"request \((\d+) tokens\) exceeds the available context", text.reason)
    return int(found.group(1)) if found else 0


def _power_of_two(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def use_gpu(device: str) -> bool:
    """Whether the model's layers go to a GPU: cuda asked for, or auto with one present
    (the CUDA wheel of xllamacpp; the CPU wheel lists none)."""
    if device == "cpu":
        return False
    gpus = [d for d in _xllamacpp().get_device_info() if "gpu" in str(d.get("type", "")).lower()]
    if device.startswith("cuda") and not gpus:
        raise ConfigError(
            f"device {device}: this xllamacpp wheel sees no GPU; install its CUDA wheel "
            "(docs/cluster.md) or set device: cpu"
        )
    return bool(gpus)


class LlamaEngine(EngineBase):
    """The engine seam (synth.generation.engine.Engine) on llama.cpp."""

    continuous = True  # calls may overlap: hrsynth serve hands each batch over at once

    def __init__(
        self,
        model_ref: str,
        device: str = "auto",
        dtype: str = "auto",
        threads: int | None = None,
        slots: int | None = None,
        context_per_slot: int = CONTEXT_PER_SLOT,
        prompt_cache: bool = True,
    ):
        _xllamacpp()
        check_params(GenerationParams(), dtype)
        self.model_ref = model_ref
        self.path = gguf_path(model_ref)
        if threads is None:  # the actor's share, as StepsActor set it for torch
            import torch

            threads = torch.get_num_threads()
        self.threads, self.prompt_cache = threads, prompt_cache
        # None: sized to the calls (generate); a number: fixed (hrsynth serve's slots)
        self.fixed_slots = slots is not None
        self.slots = slots or 1
        self.gpu = use_gpu(device)
        self.context_per_slot = context_per_slot
        self.server = self._start()
        self.prompt_tokens_evaluated = 0  # read afresh, not from the prompt cache
        self.prompt_tokens_cached = 0
        self._lock = threading.Lock()
        self._tokenizer_lock = threading.Lock()
        self.calls_in_flight = 0  # the server restarts only under a call alone

    @property
    def prefilled_tokens(self) -> int:
        """The seam's name for what llama.cpp read afresh (its prompt cache aside)."""
        return self.prompt_tokens_evaluated

    @property
    def max_context(self) -> int:
        """The tokens a prompt and its reply may take: what the model was trained on (its
        GGUF says), and at most what a slot grows to. Not the slot's bound alone: a prompt
        of 9,000 tokens on SmolLM2 (8,192) grew the slots to 16,384, took the server from
        1.3 to 12.5 GB and came back empty with 200 (issue 72)."""
        trained = trained_context(str(self.path))
        return min(MAX_CONTEXT_PER_SLOT, trained or MAX_CONTEXT_PER_SLOT, self._slot_room())

    def _slot_room(self) -> int:
        """The longest a slot may grow: with fixed slots (serve), KV_TOKENS shared by all
        of them. A served prompt of 8,188 tokens grew 32 slots to 8,192 each, and the
        server from 1.26 to 6.4 GB (issue 84); at 2,048 each, 32 slots hold 1.5 GB."""
        if not self.fixed_slots:
            return MAX_CONTEXT_PER_SLOT
        room = max(CONTEXT_PER_SLOT, KV_TOKENS // self.slots)
        return 1 << (room.bit_length() - 1)  # a power of two, as slots grow

    def prompt_tokens(self, text: str) -> int:
        """Tokens of `text` by the GGUF's own vocabulary (transformers reads it; loaded on
        the first call, once whatever the threads: serve makes that call before it
        serves, since 28 request threads importing transformers at once failed with
        ImportError and their connections closed with no status)."""
        with self._tokenizer_lock:  # request threads ask at once (issue 94: SB2)
            if not hasattr(self, "_tokenizer"):
                from transformers import AutoTokenizer

                self._tokenizer = AutoTokenizer.from_pretrained(
                    str(self.path.parent), gguf_file=self.path.name
                )
        return len(self._tokenizer(text, add_special_tokens=False).input_ids)

    def _start(self):
        """llama.cpp's server in this process, `slots` slots of `context_per_slot` tokens
        each (one KV stream per slot: a slot's attention spans only its own tokens, so
        what it writes does not depend on what the other slots hold)."""
        p = _xllamacpp().CommonParams()
        p.model.path = str(self.path)
        p.n_parallel = self.slots
        p.n_ctx = self.slots * self.context_per_slot
        p.kv_unified = False
        p.ctx_shift = False  # a full slot stops; it never drops the prompt's start
        p.cont_batching = True
        p.cache_prompt = self.prompt_cache
        p.cache_ram_mib = PROMPT_CACHE_MIB if self.prompt_cache else 0
        p.cpuparams.n_threads = self.threads
        p.cpuparams_batch.n_threads = self.threads
        p.n_gpu_layers = 999 if self.gpu else 0
        p.warmup = False
        p.verbosity = -1
        try:
            return _xllamacpp().Server(p)
        except RuntimeError:
            raise ConfigError(
                f"model {self.model_ref!r}: llama.cpp could not load {self.path} (not a GGUF "
                "file it reads, or too large for memory); fix 'model', or set backend: hf"
            ) from None

    def chat_prompt(self, messages: list[dict]) -> str:
        template, bos, eos = _chat_template(str(self.path))
        return template.render(
            messages=messages, add_generation_prompt=True, bos_token=bos, eos_token=eos
        )

    def _one(self, prompt: str, params: GenerationParams, seed: int, cancelled=None):
        """One prompt's (text, generated, prompt tokens). With `cancelled` (a served
        call), the reply streams and stops at the next token once `cancelled()`: a
        departed client's prompts already on the slots held the server until they were
        written in full (16 clients gone after 50 ms: the next request waited 122 s,
        issue 72). The streamed text is the same as the whole reply."""
        body = request(prompt, params, seed, self.context_per_slot, self.prompt_cache)
        if cancelled is None:
            answer = self.server.handle_completions(body)
        else:
            answer = _streamed(self.server, body, cancelled)
        if not isinstance(answer, dict) or "choices" not in answer:
            message = answer.get("error", answer) if isinstance(answer, dict) else answer
            if isinstance(message, dict):
                message = message.get("message", message)
            return FailedPrompt(f"llama.cpp: {str(message)[:200]}"), 0, 0
        usage, timings = answer["usage"], answer.get("timings", {})
        with self._lock:
            self.prompt_tokens_evaluated += timings.get("prompt_n", 0)
            self.prompt_tokens_cached += timings.get("cache_n", 0)
        text = answer["choices"][0]["text"]
        return text, usage["completion_tokens"], usage["prompt_tokens"]

    def continue_prompts(self, prompts: list[str], params: GenerationParams, seed: int):
        """Raw continuations, generated-token counts and prompt-token counts, per prompt:
        all in flight at once, the server's slots batching them."""
        check_params(params)
        if not prompts:
            return [], [], []
        with self._lock:
            self.calls_in_flight += 1
        try:
            if not self.fixed_slots and len(prompts) > self.slots:
                self._resize(len(prompts), self.context_per_slot)
            while True:
                results = self._each(prompts, params, seed)
                needed = max(_tokens_asked(*r) for r in results) + params.max_new_tokens
                # A prompt and its slot longer than a slot holds: longer slots, the call
                # again (the same text as if they had been that long from the start).
                if needed <= self.context_per_slot or not self._resize(self.slots, needed):
                    break
        finally:
            with self._lock:
                self.calls_in_flight -= 1
        texts, generated, read = (list(column) for column in zip(*results))
        return texts, generated, read

    def fix_slots(self, slots: int) -> None:
        """A fixed number of slots from now on (`hrsynth serve`: its batches overlap, so
        the server is never restarted under them)."""
        check_slots(slots, "slots")
        self.fixed_slots = True
        self._resize(slots, self.context_per_slot)

    def _each(self, prompts: list[str], params: GenerationParams, seed: int) -> list[tuple]:
        """Every prompt in flight on the slots; once the call is cancelled (a served
        batch whose clients left) the prompts not yet started are not started."""
        workers = min(len(prompts), 2 * self.slots)
        cancelled = cancel.current()  # read here: the pool's threads cannot see it
        watched = cancelled if cancel.watched() else None

        def one(i: int) -> tuple:
            if cancelled():
                return FailedPrompt("cancelled: its clients left"), 0, 0
            return self._one(prompts[i], params, seed + i, watched)

        with ThreadPoolExecutor(workers, thread_name_prefix="llama") as pool:
            return list(pool.map(one, range(len(prompts))))

    def _resize(self, slots: int, tokens: int) -> bool:
        """Restart the server with `slots` slots of at least `tokens` each, within the
        limits, when that changes them and no other call is decoding on it (a restart
        empties the prompt cache; the text does not change)."""
        with self._lock:
            context = min(MAX_CONTEXT_PER_SLOT, max(self.context_per_slot, _power_of_two(tokens)))
            if self.fixed_slots:  # within KV_TOKENS: serve's memory stays bounded
                context = min(context, max(self.context_per_slot, KV_TOKENS // slots))
            else:
                slots = max(1, min(slots, MAX_SLOTS, KV_TOKENS // context))
            if self.calls_in_flight > 1 or (slots, context) == (
                self.slots,
                self.context_per_slot,
            ):
                return False
            self.slots, self.context_per_slot = slots, context
            self.server = self._start()
            return True


def _streamed(server, body: dict, cancelled) -> dict:
    """llama.cpp's reply streamed and put together as its whole reply would be (text,
    usage, timings); stopped once `cancelled()` (then "cancelled" as the error)."""
    chunks = []

    def take(chunk) -> bool:  # True stops the request
        chunks.append(chunk)
        return cancelled()

    server.handle_completions({**body, "stream": True}, take)
    if cancelled():
        return {"error": "cancelled: its clients left"}
    errors = [c.get("error") for c in chunks if isinstance(c, dict) and c.get("error")]
    if errors or not chunks or "usage" not in chunks[-1]:
        return {"error": errors[0] if errors else "the stream ended without its usage"}
    text = "".join(c["choices"][0]["text"] for c in chunks if c.get("choices"))
    last = chunks[-1]
    return {"choices": [{"text": text}], "usage": last["usage"], "timings": last.get("timings", {})}


def check_slots(slots: int, name: str = "--max-batch") -> None:
    """Refuse more slots than llama.cpp's context holds: each slot keeps CONTEXT_PER_SLOT
    tokens within KV_TOKENS in all (100,000 slots aborted llama.cpp in C++; 2,000 failed
    to allocate and read as a model that could not load)."""
    most = KV_TOKENS // CONTEXT_PER_SLOT
    if not 1 <= slots <= most:
        raise ConfigError(
            f"{name} {slots}: llama.cpp serves 1 to {most} prompts at once (each slot holds "
            f"{CONTEXT_PER_SLOT:,} tokens of context, {KV_TOKENS:,} in all); give {name} "
            f"{most} or less, or --backend ct2 or hf for larger batches"
        )


# --- the backend surface (synth.generation.engine) ---------------------------------------

LABEL = "llama.cpp"
SERVED = False  # runs models in-process
SAMPLING = frozenset({"min_p"})  # its sampler's one optional feature hrsynth sets


def check(spec, params: GenerationParams) -> None:
    check_params(params, spec.dtype)


def prepare(spec) -> None:
    _xllamacpp()
    gguf_path(spec.model)


def build(spec) -> LlamaEngine:
    return LlamaEngine(spec.model, spec.device, spec.dtype, spec.threads)


def describe(spec) -> str:
    return f"{LABEL} {gguf_path(spec.model).name}"


def runs(model: str) -> bool:
    """Whether `auto` may pick this engine for `model`: xllamacpp installed, GGUF file."""
    import importlib.util

    return importlib.util.find_spec("xllamacpp") is not None and bool(
        resolve_model(model).gguf_file
    )
