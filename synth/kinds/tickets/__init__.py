"""HR tickets: the taxonomy, variable samplers, surface forms, writer traits and shapes.

The document-kind interface (synth.kinds.DocKind) for tickets."""

from synth import ConfigError
from synth.kinds.base import card_text
from synth.kinds.tickets.settings import TicketSettings

TITLE = "tickets"
CARD_TASKS = ("text-classification", "token-classification")
CARD_TEXT = card_text("hr_documents.md")  # the card's opening (synth/data/card/)
EVAL_TASKS = None  # every task evaluate has (jobs/eval_tasks.py)
FASTTEXT_PRESETS = ("THESIS", "LONG_DOCUMENTS")  # chosen on templates held out
TRAIN_FROM_CORPORA = False
SECTION, SETTINGS = "tickets", TicketSettings


def planner(cfg, run_id: str):
    from synth.kinds.tickets.plan import TicketPlanner

    return TicketPlanner(cfg, run_id)


def check_config(cfg) -> None:
    if cfg.cvs.roles != "dp_model":
        raise ConfigError(
            "cvs.roles applies to doc_type cv only; ticket labels are always balanced (see labels)"
        )


def declared_entities(labels, cfg) -> dict[str, set[str]]:
    from synth.kinds.tickets.taxonomy import TAXONOMY_DIR, load_taxonomy

    taxonomy = load_taxonomy(cfg.run.taxonomy_dir or TAXONOMY_DIR)
    return {label: set(s.variables) | set(s.context_variables) for label, s in taxonomy.items()}


def check_row(row: dict) -> list[str]:
    if row["label"] != f"{row['category']}_{row['subcategory']}":
        return ["label is not category_subcategory"]
    return []


def evaluation_labels() -> tuple[list[str], list[str]]:
    from synth.kinds.tickets.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    variables = {v for s in taxonomy.values() for v in (*s.variables, *s.context_variables)}
    return sorted(taxonomy), sorted(variables)
