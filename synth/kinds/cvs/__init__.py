"""CVs: sections, role titles, public vocabularies and planning; `extract/` is the private
side that runs before fit.

The document-kind interface (synth.kinds.DocKind) for CVs."""

from synth import ConfigError
from synth.kinds.base import card_text
from synth.kinds.cvs.entities import entity_type  # noqa: F401 (the kind's interface)
from synth.kinds.cvs.settings import CVSettings

TITLE = "CVs"
CARD_TASKS = ("text-classification",)
CARD_TEXT = card_text("hr_documents.md")  # the card's opening (synth/data/card/)
EVAL_TASKS = ("classify", "fasttext", "intrinsic")
FASTTEXT_PRESETS = ("THESIS", "LONG_DOCUMENTS")  # chosen per corpus on a validation split
TRAIN_FROM_CORPORA = True
SECTION, SETTINGS = "cvs", CVSettings


def planner(cfg, run_id: str):
    from synth.dp.privbayes import load_model_file
    from synth.kinds.cvs.plan import CVPlanner

    return CVPlanner(cfg, run_id, load_model_file(cfg.run.dp_model))


def check_config(cfg) -> None:
    if cfg.generator.prompt_style not in ("chat", "plain"):
        raise ConfigError(
            f"prompt_style {cfg.generator.prompt_style!r}: CVs are written section by "
            "section; use 'plain' or 'chat'"
        )
    if cfg.run.labels != "all":
        raise ConfigError(
            "labels: CVs take their role from the DP model; leave labels 'all' "
            "(cvs.roles: balanced gives every role equally often)"
        )


def declared_entities(labels, cfg) -> dict[str, set[str]]:
    # Every CV has a role and a total; the entries vary per CV.
    return {label: {"role", "total_years"} for label in labels}


def check_row(row: dict) -> list[str]:
    if row["label"] != row["subcategory"] or row["category"] != "CV":
        return ["a CV's label must be its role, in subcategory, category 'CV'"]
    return []


def evaluation_labels() -> tuple[None, list[str]]:
    return None, []
