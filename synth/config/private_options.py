"""Options of the jobs that read private data: fit (the DP model), profile and evolve (a
user's writing), extract (the CV table). Each spends or prepares an ε budget."""

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from synth.config.option_types import (
    Count,
    NonNegativeNumber,
    OpenShare,
    Positive,
    PositiveNumber,
    Share,
    check_encoding,
    check_epsilon,
)
from synth.generation import backends
from synth.typed import option


@dataclass(kw_only=True)
class FitOptions:
    data: str = option(help="private table (CSV)", role="input")
    schema: str = option(help="public schema (YAML)", role="input")
    epsilon: float = option(help="total privacy budget ε")
    output: str = option(help="model file to write (JSON)", role="output")
    degree: Count | None = option(
        None, "parents per attribute (0: independent attributes; default: chosen from n, d, ε)"
    )
    graph: str | None = option(
        None, "fixed graph YAML {attribute: [parents]}: no structure ε", role="input"
    )
    seed: int = option(
        0,
        "seeds the --holdout split only: the DP noise always comes from the operating "
        "system's secure generator, so nobody can replay it",
    )
    structure_share: OpenShare | None = option(
        None,
        "β: share of ε spent on choosing the structure (default: the paper's 0.3, "
        "synth.dp.privbayes.STRUCTURE_SHARE)",
    )
    theta: PositiveNumber | None = option(
        None,
        "θ-usefulness: parent sets only as large as the noise allows (default 4, "
        "synth.dp.privbayes.THETA)",
    )
    on_out_of_domain: Literal["error", "clip"] = option("error", "values outside the schema")
    holdout: Share = option(
        0.0,
        "share of rows kept out of the fit for evaluate's privacy checks (e.g. 0.2; the "
        "split is rebuilt from n, share and seed)",
    )

    roles: str | None = option(
        None,
        "a CV corpus's own role list (one per line, or YAML 'role: title'; public, written "
        "by you): the schema's 'role' values become these, so a corpus whose roles are "
        "not the shipped ones fits with configs/cv_schema.yaml as it is",
        role="input",
    )

    def check(self) -> None:
        check_epsilon("--epsilon", self.epsilon)


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
    prior_strength: NonNegativeNumber = option(
        1.0,
        "weight of the shipped defaults, in units of each histogram's expected noise mass "
        "(0: the noisy counts alone)",
    )

    def check(self) -> None:
        check_epsilon("--epsilon", self.epsilon)
        check_encoding("--encoding", self.encoding)


@dataclass(kw_only=True)
class ExtractOptions:
    corpus: str = option(help="private CV corpus (CSV or JSONL)", role="input")
    output: str = option(help="attribute table to write (CSV)", role="output")
    min_count: Positive = option(
        5, "names seen fewer times become 'Other University' / 'Generic Company'"
    )
    as_of: Positive | None = option(
        None, "the year 'present' / 'till date' means (default: this year)"
    )
    keep_duplicates: bool = option(
        False, "keep CVs whose text repeats another's (default: once each)"
    )


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
    delta: OpenShare = option(1e-5, "δ of the rounds' (ε, δ) guarantee; must be below 1 / tickets")
    rounds: Positive = option(3, "rounds of votes (each one noisy histogram)")
    pool: Annotated[int, Field(ge=2)] = option(
        64, "candidate tickets per round (at least 2: half are kept, half varied)"
    )
    config: str = option(
        "configs/tickets.yaml",
        "generation config the candidates are planned with",
        role="input",
    )
    seed: int = option(0, "seed of the candidates' plans and texts (the noise has none)")
    model: str | None = option(None, "generator (default: the config's)")
    backend: str | None = option(None, "engine (default: the config's)", names=backends.help_names)
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
        check_encoding("--encoding", self.encoding)
