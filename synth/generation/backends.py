"""Which engine runs a model: the registry beside the seam (engine.py), so that neither
the seam nor the rollout knows the list of backends.

A config's `backend` (and generate's or serve's --backend) names one:
- `llama`: llama.cpp in-process (llama_engine.py), GGUF files as they are;
- `ct2`: CTranslate2 in-process (ct2_engine.py), int8 on CPU, float16 on GPU;
- `hf`: Hugging Face transformers in-process (hf_engine.py);
- `openai`: an OpenAI-compatible endpoint (openai_engine.py), which `model: openai:NAME`
  always selects;
- `auto` (the default): the fastest measured where the model runs (AUTO below).

A backend is one module with the surface engine.py describes, and one line in BACKENDS
(or an entry point of an installed package: synth/plugins.py); every choice below is a
lookup in `registered()`. Modules are imported when first looked up, so a
config check loads only the engine it names.
"""

from dataclasses import dataclass, replace
from functools import partial
from types import ModuleType

from synth import ConfigError, plugins
from synth.generation.engine import EngineSpec
from synth.generation.params import GenerationParams

BACKENDS = {
    "llama": "synth.generation.llama_engine",
    "ct2": "synth.generation.ct2_engine",
    "hf": "synth.generation.hf_engine",
    "openai": "synth.generation.openai_engine",
}

# What `auto` picks, by where the model runs: the fastest engine in the engines
# benchmark (benchmarks/results/speed_and_engines.md): Hugging Face on a GPU and on a CPU with native
# bf16 matmuls, CTranslate2 int8 on an AVX2-only CPU.
AUTO = {"gpu": "hf", "cpu-bf16": "hf", "cpu-avx2": "ct2"}

# What an installed backend is asked on the driver before a run (Backend.try_once).
TRIAL_PROMPT = "Write one sentence an employee might send HR about a payslip."


def registered() -> dict[str, str]:
    """{backend: its module}: BACKENDS and the installed packages' `hrsynth.backends`."""
    return plugins.registry("backends", BACKENDS)


def names() -> tuple[str, ...]:
    """Every --backend choice."""
    return ("auto", *registered())


def help_names() -> list[str]:
    """Every --backend choice for --help, a broken installed one marked (never fails)."""
    return ["auto", *plugins.help_names("backends", BACKENDS, module)]


def check_chosen(chosen: str | None) -> None:
    """The backend a run names loaded and checked, every other broken installed one a
    warning line (synth/plugins.py)."""
    plugins.check_chosen("backends", BACKENDS, module, [chosen] if chosen else [])


# What every backend module gives (engine.py describes each): SERVED, then functions.
SURFACE = ("SERVED", "check", "prepare", "build", "describe")


def module(name: str) -> ModuleType:
    """The backend module registered as `name`, its surface checked, an installed one
    seen through the seam (every call into it: synth/plugins.py)."""
    plugins.refuse_clash("backends", BACKENDS, name)
    found = plugins.load("backends", name, registered()[name], SURFACE)
    not_callable = [part for part in SURFACE[1:] if not callable(getattr(found, part))]
    if not isinstance(found.SERVED, bool) or not_callable:
        wrong = ["SERVED (True or False)"] if not isinstance(found.SERVED, bool) else []
        raise ConfigError(
            f"backend {name!r} ({registered()[name]}): {', '.join(wrong + not_callable)} "
            "is not what docs/extending.md says a backend gives; fix the package that "
            "registers it"
        )
    return plugins.guard(found, "backends", name)


def _declared(name: str) -> frozenset:
    """The optional decoding features backend `name` declares (nothing when it cannot
    be loaded: a refusal's hint must not fail)."""
    try:
        return frozenset(getattr(module(name), "SAMPLING", ()))
    except ConfigError:
        return frozenset()


def cpu_kind() -> str:
    """`cpu-bf16` where torch has native bf16 matmuls (AVX-512 BF16 / AMX), else
    `cpu-avx2`; the key of AUTO for a CPU."""
    from synth.precision import native_bf16

    return "cpu-bf16" if native_bf16() else "cpu-avx2"


def cpu_name() -> str:
    """The CPU's capability as torch sees it (AVX512, AVX2, …), for the start line."""
    import torch

    return torch.backends.cpu.get_cpu_capability()


def _on_gpu(device: str) -> bool:
    if device.startswith(("cuda", "mps")):
        return True
    if device != "auto":
        return False
    import torch

    return torch.cuda.is_available()


def auto_backend(model: str, device: str = "auto", dtype: str = "auto") -> str:
    """AUTO's choice for `model` on `device` here; a choice whose module says it cannot
    run the model here (`runs`) falls back to ct2. A dtype named in the config picks the
    engine that has it (int8 types: ct2; float: hf)."""
    if dtype != "auto":
        return "hf" if dtype in module("hf").DTYPES else "ct2"
    chosen = AUTO["gpu" if _on_gpu(device) else cpu_kind()]
    runs = getattr(module(chosen), "runs", None)
    return "ct2" if runs and not runs(model) else chosen


def _served_by(model: str) -> str | None:
    """The backend a `<backend>:NAME` model names (openai:NAME), if any."""
    prefix = model.split(":", 1)[0]
    return prefix if ":" in model and prefix in registered() else None


def backend_for(
    model: str, backend: str = "auto", device: str = "auto", dtype: str = "auto"
) -> str:
    """The backend that runs `model`: the one named, or for auto AUTO's choice here."""
    if backend not in names():
        raise ConfigError(f"backend {backend!r} unknown; use one of {list(names())}")
    served = _served_by(model)
    if served:
        if backend not in ("auto", served):
            raise ConfigError(
                f"backend {backend} runs a model in-process; model {model} is served: "
                f"drop backend (or set it to {served}), or give a local model"
            )
        return served
    if backend != "auto" and module(backend).SERVED:
        raise ConfigError(
            f"backend {backend} needs model: {backend}:NAME (the served model's name)"
        )
    return auto_backend(model, device, dtype) if backend == "auto" else backend


def resolve(
    model: str,
    backend: str = "auto",
    device: str = "auto",
    dtype: str = "auto",
    threads: int | None = None,
    endpoint=None,
) -> EngineSpec:
    """The one place the engine is decided: the EngineSpec every later step reads (the
    config check, the driver's prepare, the start line, the actors, the manifest)."""
    chosen = backend_for(model, backend, device, dtype)
    return EngineSpec(model, device, dtype, threads, endpoint, chosen, backend == "auto")


@dataclass(frozen=True)
class Backend:
    """The engine a run uses, decided once (`resolve`), and every step that asks its
    module: the config check, the driver's prepare, the start line, the resume rule,
    the actors' build. Built from the EngineSpec a config or a job carries (picklable,
    recorded); `Backend.of` resolves settings and wraps the result."""

    spec: EngineSpec

    @classmethod
    def of(cls, model: str, backend: str = "auto", device: str = "auto", dtype: str = "auto",
           threads: int | None = None, endpoint: dict | None = None) -> "Backend":  # fmt: skip
        return cls(resolve(model, backend, device, dtype, threads, endpoint))

    @classmethod
    def of_generator(cls, gen, threads: int | None = None) -> "Backend":
        """For a config's generator section."""
        return cls.of(gen.model, gen.backend, gen.device, gen.dtype, threads, gen.engine)

    @property
    def module(self) -> ModuleType:
        return module(self.spec.backend)

    @property
    def served(self) -> bool:
        """The model is served elsewhere (no model, no GPU here)."""
        return self.module.SERVED

    def check(self, params: GenerationParams) -> None:
        """Config check (no model loaded): the decoding features the backend declares it
        honours (its module's SAMPLING; none declared: none of params.OPTIONAL), then its
        own rules (its dtype, combinations), each refusal naming the field."""
        from synth.generation.params import OPTIONAL, refuse_unsupported

        honoured = getattr(self.module, "SAMPLING", ())
        wanted = {name for name, off in OPTIONAL.items() if getattr(params, name) != off}
        if not wanted <= set(honoured):
            able = [n for n in BACKENDS if wanted <= _declared(n)]
            refuse_unsupported(params, honoured, self.spec.backend, able)
        self.module.check(self.spec, params)

    def prepare(self) -> None:
        """Resolve the model on the driver, before Ray starts: a local path or hub id
        that cannot be read, a model CTranslate2 cannot convert, a Hugging Face model
        given to llama.cpp, or an endpoint that does not answer, is one line here."""
        self.module.prepare(self.spec)

    def batch_free(self, params: GenerationParams) -> bool:
        """Whether the backend writes a document's text whatever the batch it decodes in
        (its own draws per request, no cross-row effect): a resumed run may then change
        batch_size. A backend that does not say so (`batch_free(spec, params)` in its
        module) is taken to write other text in other batches, and a resume keeps its
        batch size (synth.io.shards.open_output)."""
        says = getattr(self.module, "batch_free", None)
        return bool(says and says(self.spec, params))

    def build(self):
        """The engine itself, where it runs, checked to have what the rollout calls; an
        engine that names no `model_ref` (EngineBase's None) records the spec's model."""
        engine = self.module.build(self.spec)
        wanted = ("continue_prompts", "chat_prompt")
        missing = [m for m in wanted if not callable(getattr(engine, m, None))]
        if missing:
            raise ConfigError(
                f"backend {self.spec.backend!r}: the engine its build() returns lacks "
                f"{', '.join(missing)}; subclass synth.generation.engine.EngineBase and "
                "write them (docs/extending.md)"
            )
        if getattr(engine, "model_ref", None) is None:
            engine.model_ref = self.spec.model
        return engine

    def try_once(self, params: GenerationParams, seed: int) -> None:
        """An installed backend built and asked one real prompt on the driver, its answer
        through the checks the rollout makes (engine.checked_continuations), before Ray
        starts or anything is written: a plugin's wrong return or exception costs seconds
        and one line, not minutes in the actors. hrsynth's own backends are tested with
        hrsynth and not loaded twice (a model load on the driver costs seconds to
        minutes)."""
        from synth.generation.engine import checked_continuations

        if plugins.seam("backends", self.spec.backend) is None:
            return
        engine = self.build()
        prompt = engine.chat_prompt([{"role": "user", "content": TRIAL_PROMPT}])
        if not isinstance(prompt, str):
            raise ConfigError(
                f"{plugins.who('backends', self.spec.backend)}: chat_prompt returned "
                f"{type(prompt).__name__}, not the prompt's text (docs/extending.md)"
            )
        trial = replace(params, max_new_tokens=min(params.max_new_tokens, 16))
        checked_continuations(engine, [prompt], engine.continue_prompts([prompt], trial, seed))

    def factory(self):
        """A picklable callable that builds the engine where it runs (in each actor)."""
        return partial(Backend.build, self)

    def start_line(self, threads: int | None = None) -> str:
        """One line for the start of a run: which engine, on what, and why."""
        spec = replace(self.spec, threads=threads) if threads else self.spec
        what = self.module.describe(spec)
        if self.served:
            return f"engine: {what}"
        why = " (auto: the fastest measured here)" if spec.auto else ""
        where = "GPU" if _on_gpu(spec.device) else f"{spec.threads or '?'} threads, {cpu_name()}"
        return f"engine: {what}, {where}{why}"
