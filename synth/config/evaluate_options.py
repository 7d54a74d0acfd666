"""Options of the jobs that train and measure: evaluate, refresh (generate and evaluate
on a schedule) and cv-experiment."""

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from synth import ConfigError, kinds
from synth.config.option_types import Count, OpenShare, Positive, PositiveNumber, check_epsilon
from synth.typed import option


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
    num_workers: Positive = option(1, "Ray Train workers")
    # Tuned on tickets (thousands of documents); the CV experiment trains on ~100 CVs and
    # uses more epochs at a higher rate (CVExperimentOptions).
    epochs: Positive = option(3, "encoder training epochs")
    batch_size: Positive = option(16, "encoder training batch size")
    lr: PositiveNumber = option(5e-5, "encoder learning rate")
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
        "ticket", "the document kind: its tasks and test labels", names=kinds.help_names
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
    permutations: Count = option(
        0, "also train this many times on permuted labels (random baseline)"
    )

    def check(self) -> None:
        from synth.kinds import check_chosen, kind

        kind(self.doc_type)  # names the kinds when unknown
        check_chosen(self.doc_type)  # and warns of broken others


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
    total_budget: PositiveNumber | None = option(
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
    epochs: Positive = option(3, "evaluation training epochs")
    keep: Positive = option(5, "successful versions to keep")

    def check(self) -> None:
        fitting = [self.fit_data, self.fit_schema, self.epsilon]
        if any(x is not None for x in fitting) and not all(x is not None for x in fitting):
            raise ConfigError("refitting needs all of --fit-data, --fit-schema and --epsilon")
        if self.fit_data and self.dp_model:
            raise ConfigError("give --fit-data (refit) or --dp-model (reuse), not both")
        if self.total_budget is not None and not self.fit_data:
            raise ConfigError("--total-budget caps refits: give it with --fit-data")
        check_epsilon("--epsilon", self.epsilon)
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
    num_docs: Positive = option(100, "synthetic CVs per ε")
    test_share: OpenShare = option(0.4, "share of each role's CVs in the test split")
    per_role: Annotated[int, Field(ge=2)] | None = option(
        None,
        "use at most this many CVs per role, drawn at random with --seed before the split "
        "(at least 2: one CV per role on each side; a quicker run on a large corpus; table.json "
        "counts the CVs used and in the corpus)",
    )
    combined_epsilons: str = option("1", "ε values for real + synthetic")
    masked_epsilons: str | None = option(None, "ε values masked (default: all)")
    permutations: Count = option(10, "random-baseline runs")
    # ~100 training CVs give a 25-way head few optimiser steps: at evaluate's defaults
    # (3 epochs, lr 5e-5, fine for thousands of tickets) the encoder scored 0.05 weighted
    # F1 on the development split; 10 epochs at 1e-4 scored 0.77. Chosen on that split.
    epochs: Positive = option(10, "encoder training epochs")
    lr: PositiveNumber = option(1e-4, "encoder learning rate")
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
