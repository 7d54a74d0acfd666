"""The CTranslate2 engine: the same models as the Hugging Face engine, converted once to
CTranslate2's format and decoded by its C++ runtime (int8 matmuls on CPU, float16 on GPU).

Where it pays: on an AVX2-only CPU, where Hugging Face runs float32, it is the fastest
engine hrsynth has and `auto` picks it; with native bf16 its fixed cost per decoding step
outweighs its int8 matmuls for a 135M model (the numbers: benchmarks/results/
speed_and_engines.md, from benchmarks/speed/engines.py). A model is converted once per model and
compute type into the cache (`HRSYNTH_CACHE/ct2/KEY-TYPE`, written to a temporary folder
and renamed, so concurrent actors never read half a model) and loaded by every actor.

Per-row stopping is the HF engine's: CTranslate2 calls back on every generated token, and
a row leaves the batch as soon as its slot is finished (trimming.is_finished).

Threads: one single-threaded decoder per CPU thread of the actor, each decoding its own
groups of prompts (buckets.py): two one-thread decoders make more tokens than one
two-thread decoder, whose per-step overhead does not split across threads.

Seeds: CTranslate2 draws from one random generator per decoding thread, seeded when that
thread first samples and never again. So each call decodes on fresh decoders (loading
the converted model from the page cache takes ~50 ms, against seconds of decoding) whose
threads start from the call's seed: the same prompts, parameters and seed give the same
text.
"""

import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

from synth import ConfigError, cancel
from synth.generation.buckets import group_by_length, share_among
from synth.generation.engine import EngineBase
from synth.generation.models import CACHE_DIR, resolve_model, transformers_folder
from synth.generation.params import GenerationParams, refuse_unsupported
from synth.generation.trimming import is_finished

CPU_TYPES = ("int8", "int8_float32", "float32")
CUDA_TYPES = ("int8_float16", "float16", "bfloat16")
DEFAULT_TYPE = {"cpu": "int8", "cuda": "float16"}


def _ctranslate2():
    try:
        import ctranslate2
    except ImportError:
        raise ConfigError(
            "backend ct2 needs the ctranslate2 package; run `make install` "
            "(pip install ctranslate2==4.8.5) or set backend: hf"
        ) from None
    return ctranslate2


def pick_device_type(device: str = "auto", dtype: str = "auto") -> tuple[str, int, str]:
    """(device, device index, compute type) for a config's device and dtype, or a
    ConfigError naming the type that device cannot run."""
    if device == "auto":
        device = "cuda" if _ctranslate2().get_cuda_device_count() > 0 else "cpu"
    kind, _, index = device.partition(":")
    if kind not in DEFAULT_TYPE:
        raise ConfigError(
            f"device {device!r}: backend ct2 runs on cpu or cuda[:N]; set backend: hf"
        )
    compute = DEFAULT_TYPE[kind] if dtype == "auto" else dtype
    allowed = CPU_TYPES if kind == "cpu" else CUDA_TYPES
    if compute not in allowed:
        raise ConfigError(
            f"dtype {compute!r} is not one backend ct2 runs on {kind}; use one of "
            f"{list(allowed)}, or set backend: hf"
        )
    return kind, int(index or 0), compute


def check_params(params: GenerationParams) -> None:
    """Refuse, at config check, a combination CTranslate2 cannot honour (what it lacks
    altogether is SAMPLING's complement, refused here for a caller of the engine and
    by backends.Backend.check for a run)."""
    refuse_unsupported(params, SAMPLING, "ct2", ("hf",))
    if params.num_beams > 1 and params.do_sample:
        raise ConfigError(
            "generation.num_beams > 1 with do_sample true (beam sampling) is not supported "
            "by backend ct2; set num_beams: 1, do_sample: false, or backend: hf"
        )


def _max_context(folder: str) -> int | None:
    """The model's context in tokens, from its config (None when it does not say)."""
    try:
        config = json.loads((Path(folder) / "config.json").read_text())
    except (OSError, ValueError):
        return None
    return config.get("max_position_embeddings")


def converted_model(ref: str, compute_type: str) -> Path:
    """The CTranslate2 folder of `ref` at `compute_type`, converting it on first use.
    A model CTranslate2 cannot convert is a ConfigError naming the fallback engine."""
    source = resolve_model(ref)
    folder = CACHE_DIR / "ct2" / f"{source.cache_key}-{compute_type}"
    if (folder / "model.bin").exists():
        return folder
    from synth.io.lock import shared_state_lock

    # one actor converts; the others wait, then reuse (locks apart from the models)
    with shared_state_lock(str(CACHE_DIR / "locks" / f"ct2-{folder.name}")):
        if (folder / "model.bin").exists():
            return folder
        return _convert(ref, compute_type, folder)


def _convert(ref: str, compute_type: str, folder: Path) -> Path:
    weights = transformers_folder(ref)
    tmp = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
    try:
        converter = _ctranslate2().converters.TransformersConverter(weights)
        converter.convert(str(tmp), quantization=compute_type, force=True)
    except Exception as e:  # noqa: BLE001 (any converter failure is the same answer)
        shutil.rmtree(tmp, ignore_errors=True)
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0].split(" (supported")[0][
            :160
        ]
        raise ConfigError(
            f"model '{ref}' cannot be converted by CTranslate2 ({reason}); "
            "set backend: hf (the Hugging Face engine) to run it"
        ) from None
    if folder.exists():  # another actor converted it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        tmp.replace(folder)
    return folder


@contextmanager
def _torch_threads_kept():
    """CTranslate2 sets the process's OpenMP thread count to its decoders' (one) when it
    makes them, and torch shares that runtime: without this, a Hugging Face model or a
    training step in the same process would run on one thread, and write other text."""
    import torch

    threads = torch.get_num_threads()
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _token_strings(tokenizer, words: list[str]) -> list[list[str]] | None:
    """Banned words as token sequences, with and without a leading space (as the HF
    engine bans them)."""
    variants = {w for word in words for w in (word, " " + word)}
    ids = [tokenizer(v, add_special_tokens=False).input_ids for v in sorted(variants)]
    return [tokenizer.convert_ids_to_tokens(i) for i in ids] or None


class CT2Engine(EngineBase):
    """The engine seam (synth.generation.engine.Engine) on CTranslate2."""

    def __init__(
        self, model_ref: str, device: str = "auto", dtype: str = "auto", threads: int | None = None
    ):
        from transformers import AutoTokenizer

        self.model_ref = model_ref
        self.device, self.device_index, self.compute_type = pick_device_type(device, dtype)
        self.folder = converted_model(model_ref, self.compute_type)
        self.tokenizer = AutoTokenizer.from_pretrained(transformers_folder(model_ref))
        if threads is None:  # the actor's share, as StepsActor set it for torch
            import torch

            threads = torch.get_num_threads()
        self.threads = threads
        ends = [self.tokenizer.eos_token, self.tokenizer.pad_token]
        self.end_tokens = list(dict.fromkeys(t for t in ends if t))
        self.max_context = _max_context(transformers_folder(model_ref))
        self.prefilled_tokens = 0  # every call reads its prompts whole: no cache across calls

    def prompt_tokens(self, text: str) -> int:
        return len(self.tokenizer(text, add_special_tokens=False).input_ids)

    def chat_prompt(self, messages: list[dict]) -> str:
        return self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False
        )

    def _decoders(self, count: int, seed: int) -> list:
        """`count` fresh decoders (one thread each on CPU), decoder w's random generator
        seeded with seed + w: a decoder's thread seeds its generator on its first draw,
        which the one-token warm-up makes happen now, before the next seed is set."""
        ct2 = _ctranslate2()
        decoders = []
        for w in range(count):
            ct2.set_random_seed((seed + w) % 2**32)
            decoder = ct2.Generator(
                str(self.folder),
                device=self.device,
                device_index=self.device_index,
                compute_type=self.compute_type,
                intra_threads=1 if self.device == "cpu" else 0,
            )
            decoder.generate_batch([[self.end_tokens[0]]], max_length=1, sampling_topk=2)
            decoders.append(decoder)
        return decoders

    def continue_prompts(self, prompts: list[str], params: GenerationParams, seed: int):
        """Raw continuations, generated-token counts and prompt-token counts, per prompt.

        Prompts are grouped by length (buckets.py) and the groups shared among one
        decoder per thread (CPU; one on a GPU), each decoding its groups in a fixed order."""
        check_params(params)
        tokens = [
            self.tokenizer.convert_ids_to_tokens(self.tokenizer.encode(p, add_special_tokens=False))
            or [self.tokenizer.eos_token]
            for p in prompts
        ]
        lengths = [len(t) for t in tokens]
        self.prefilled_tokens += sum(lengths)
        groups = group_by_length(lengths, params.max_new_tokens)
        workers = self.threads if self.device == "cpu" else 1
        shares = share_among(groups, lengths, params.max_new_tokens, workers)
        new: list[list[int]] = [[] for _ in prompts]
        options = self._options(params)
        cancelled = cancel.current()  # read here: the callbacks run on CTranslate2's threads
        pending = []
        with _torch_threads_kept():
            decoders = self._decoders(len(shares), seed)
        for decoder, share in zip(decoders, shares):
            for group in share:  # queued in order on the decoder's one thread
                futures = decoder.generate_batch(
                    [tokens[i] for i in group],
                    asynchronous=True,
                    callback=(
                        self._stopper(params, group, new, cancelled)
                        if params.num_beams == 1
                        else None
                    ),
                    **options,
                )
                pending += zip(group, futures)
        ids = [[] for _ in prompts]
        for i, future in pending:
            ids[i] = future.result().sequences_ids[0]
        texts = self.tokenizer.batch_decode(ids, skip_special_tokens=True)
        return texts, [len(i) for i in ids], lengths

    def _options(self, params: GenerationParams) -> dict:
        """GenerationParams as CTranslate2's generate_batch options."""
        return {
            "max_length": params.max_new_tokens,
            "min_length": params.min_new_tokens,
            "beam_size": params.num_beams,
            "repetition_penalty": params.repetition_penalty,
            "no_repeat_ngram_size": params.no_repeat_ngram_size,
            "suppress_sequences": _token_strings(self.tokenizer, params.bad_words),
            "end_token": self.end_tokens,
            "return_end_token": True,
            "include_prompt_in_result": False,
            "sampling_topk": (params.top_k or len(self.tokenizer)) if params.do_sample else 1,
            "sampling_topp": params.top_p if params.do_sample else 1.0,
            "sampling_temperature": params.temperature if params.do_sample else 1.0,
        }

    def _stopper(self, params: GenerationParams, group: list[int], new: list[list[int]], cancelled):
        """The per-token callback of one group: a row stops once its slot is finished, or
        the call is cancelled (its clients gone)."""

        def step(result) -> bool:
            if cancelled():
                return True
            row = new[group[result.batch_id]]
            row.append(result.token_id)
            if len(row) < max(params.min_new_tokens, 1):
                return False
            text = self.tokenizer.decode(row, skip_special_tokens=True)
            return is_finished(text, params.sentences_per_slot, params.paragraphs_per_slot)

        return step


# --- the backend surface (synth.generation.engine) ---------------------------------------

LABEL = "CTranslate2"
SERVED = False  # runs models in-process
# No constrained beam search (force_words) and no min-p sampling in generate_batch.
SAMPLING = frozenset({"min_new_tokens", "no_repeat_ngram_size", "num_beams", "bad_words"})


def check(spec, params: GenerationParams) -> None:
    if spec.device != "auto":
        pick_device_type(spec.device, spec.dtype)  # names the types this device runs
    elif spec.dtype not in ("auto", *CPU_TYPES, *CUDA_TYPES):
        raise ConfigError(
            f"dtype {spec.dtype!r} is not one backend ct2 runs; use auto, one of "
            f"{[*CPU_TYPES, *CUDA_TYPES]}, or set backend: hf"
        )
    check_params(params)


def prepare(spec) -> None:
    """Converted here once, into the cache the actors load from."""
    converted_model(spec.model, pick_device_type(spec.device, spec.dtype)[2])


def build(spec) -> CT2Engine:
    return CT2Engine(spec.model, spec.device, spec.dtype, spec.threads)


def describe(spec) -> str:
    return f"{LABEL} {pick_device_type(spec.device, spec.dtype)[2]}"
