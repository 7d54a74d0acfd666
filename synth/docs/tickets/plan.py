"""Driver-side sampling: every document's label, persona, variables and template.

Cheap and deterministic from the seed; this is what Ray then distributes for the
expensive part (generation), one synth.record.PlannedDocument per ticket.
"""

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from synth import ConfigError
from synth.docs import balanced_labels
from synth.docs.persona import make_personas
from synth.docs.tickets.forms import Writer, render_values
from synth.docs.tickets.samplers import SamplingContext, sampler_for
from synth.docs.tickets.shape import (
    FREE_TEMPLATE_ID,
    WritingTally,
    choose_template,
    free_card,
    template_pools,
    ticket_pieces,
)
from synth.docs.tickets.sources import clause_banks
from synth.docs.tickets.taxonomy import TAXONOMY_DIR, load_taxonomy, resolve_label
from synth.docs.tickets.traits import STYLES, draw, draw_shape, traits_from, weights
from synth.dp.privbayes import load_model_file
from synth.generation.template import fill, variables_in
from synth.record import PlannedDocument

WRITER_STREAM = 1  # the seed's second stream: writer traits, prompt styles, surface forms


def chosen_labels(cfg, taxonomy) -> list[str]:
    if cfg.labels == "all":
        return list(taxonomy)
    if not isinstance(cfg.labels, list) or not cfg.labels:
        raise ConfigError("labels must be 'all' or a non-empty list of labels")
    return [resolve_label(taxonomy, name) for name in cfg.labels]


def instruction(sub, persona: dict, values: dict) -> str:
    facts = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in values.items())
    return (
        f"Write a short email from {persona['name']}, who works at {persona['company']}, "
        f"to the HR department. The writer {sub.description}. Facts: {facts}. "
        "Write in the first person, stay on this topic, and use no placeholders."
    )


def plan_tickets(cfg, run_id: str) -> tuple[list[PlannedDocument], dict]:
    """All cfg.num_docs tickets in index order, and notes for the manifest (`cfg`: a
    synth.config.generate.GenerateConfig; not imported, the config layer sits above)."""
    taxonomy = load_taxonomy(cfg.taxonomy_dir or TAXONOMY_DIR)
    labels = chosen_labels(cfg, taxonomy)
    rng = np.random.default_rng(cfg.seed)
    per_doc = balanced_labels(labels, cfg.num_docs, rng)
    personas = make_personas(cfg.num_docs, cfg.countries, rng)
    ctx = SamplingContext(reference_date=dt.date.fromisoformat(cfg.reference_date))
    notes = {"dp_models": {}, "dp_samples": None}
    values = _sample_values(cfg, run_id, taxonomy, labels, per_doc, personas, ctx, rng, notes)
    # Traits, styles and forms draw from a stream of their own: with the first release's
    # settings they draw nothing, and `rng` makes the same tickets it always made.
    writing = _Writing(
        traits=traits_from(cfg.traits),
        styles=weights(cfg.prompt_style, "prompt_style", STYLES),
        pools=template_pools(taxonomy, cfg.templates),
        value_forms=cfg.value_forms,
        reference_date=ctx.reference_date,
        rng=rng,
        writer_rng=np.random.default_rng([cfg.seed, WRITER_STREAM]),
        tally=WritingTally(),
    )
    docs = [
        _ticket(i, i // cfg.shard_size, run_id, taxonomy[per_doc[i]], personas[i], values[i], writing)
        for i in range(cfg.num_docs)
    ]
    notes["writing"] = writing.tally.summary()
    return docs, notes


def _sample_values(cfg, run_id, taxonomy, labels, per_doc, personas, ctx, rng, notes) -> list:
    """Each ticket's sampled variables, label by label (a health ticket's absence from the
    DP model, recorded in `notes`)."""
    model = load_model_file(cfg.dp_model)
    values: list[dict] = [{} for _ in range(cfg.num_docs)]
    for label in labels:
        sub = taxonomy[label]
        rows = np.flatnonzero(per_doc == label)
        if len(rows) == 0:
            continue
        sampler = sampler_for(sub.sampler, label)
        if sub.sampler == "health_absence":
            if model is None:
                raise ConfigError(
                    f"label '{label}' needs a DP absence model: set dp_model "
                    "(run `hrsynth fit`) or drop the label"
                )
            sampled_rows = model.sample(len(rows), cfg.seed)
            ctx.absences = _absences(sampled_rows, cfg.seed)
            notes["dp_samples"] = sampled_rows.assign(id=[f"{run_id}-{i:08d}" for i in rows])
            notes["dp_models"][cfg.dp_model] = model.to_dict()["ledger"] | {
                "degree": model.degree,
                "used_for": label,
                "holdout": model.fit_info.get("holdout"),
            }
        sampled = sampler(len(rows), rng, [personas[i] for i in rows], ctx)
        for k, i in enumerate(rows):
            values[i] = {name: sampled[name][k] for name in sampled}
    return values


@dataclass
class _Writing:
    """What writing a ticket draws from: its settings, the two random streams, the tally."""

    traits: object
    styles: dict
    pools: dict
    value_forms: str
    reference_date: dt.date
    rng: np.random.Generator
    writer_rng: np.random.Generator
    tally: WritingTally


def _ticket(i, shard, run_id, sub, persona, values, w: _Writing) -> PlannedDocument:
    """One ticket: its shape, style, template, the values' written forms and its header."""
    shape = draw_shape(w.traits, sub, w.writer_rng)
    style = draw(w.styles, w.writer_rng)
    template = (
        None
        if style == "free"
        else choose_template(sub, w.pools[sub.label], shape, w.traits.omission, w.rng)
    )
    # With omission on, a variable the chosen template does not write is left out too,
    # and one it writes is kept (planted with its span) even when the shape omitted it:
    # an unmarked planted value would teach a detector to leave such values alone.
    kept = [
        v
        for v in sub.variables
        if (template is not None and w.traits.omission and v in sub.uses(template))
        or (v not in shape.omitted and (template is None or not w.traits.omission))
    ]
    if template is not None and template.clauses:
        values = with_clauses(values, w.writer_rng)
    shown = kept + [v for v in sub.context_variables if v in values]
    writer = Writer(persona["country_code"], persona["locale"], w.reference_date)
    surface, forms = render_values({k: values[k] for k in shown}, writer, w.value_forms, w.writer_rng)
    all_values = {**persona, **values, **surface}
    left_out = set(sub.variables) - set(kept)
    headers = _without(sub.headers, left_out)
    subjects = _without(sub.subjects, left_out)
    header = "\n".join(
        [
            f"From: {persona['name']} <{persona['company_email']}>",
            fill(headers[w.rng.integers(len(headers))], all_values),
            "Subject: " + fill(subjects[w.rng.integers(len(subjects))], all_values),
        ]
    )
    entity_surface = {k: surface[k] for k in kept}
    # A context variable the template writes (an absence's last day, the salary asked
    # for) is a planted value too: marked wherever it is written.
    written = [
        v
        for v in sub.context_variables
        if v in surface and template is not None and v in variables_in(template.body)
    ]
    planted = kept + written
    w.tally.add(sub, shape, style, template, {k: forms[k] for k in kept}, left_out)
    return PlannedDocument(
        index=i,
        shard=shard,
        run_id=run_id,
        doc_type="ticket",
        label=sub.label,
        category=sub.category,
        subcategory=sub.subcategory,
        template_id=template.id if template else FREE_TEMPLATE_ID,
        header=header if shape.header else "",
        pieces=ticket_pieces(template, shape, all_values, w.writer_rng),
        instruction=(
            free_card(sub, persona, entity_surface, shape)
            if style == "free"
            else instruction(sub, persona, entity_surface)
        ),
        entities={k: str(values[k]) for k in planted},
        attributes={k: str(v) for k, v in values.items()},
        persona=persona,
        surface={k: surface[k] for k in planted},
        style=style,
        target_words=shape.target_words,
        slip_rate=w.traits.slip_rate,
    )


def with_clauses(values: dict, rng: np.random.Generator) -> dict:
    """The ticket's descriptive values replaced by first-person clauses from the banks
    (a clause template's ticket is about the clause it writes, not the listed value)."""
    banks = clause_banks()
    return {
        k: banks[k][rng.integers(len(banks[k]))] if k in banks else v for k, v in values.items()
    }


def _without(lines: tuple[str, ...], left_out: set[str]) -> tuple[str, ...]:
    """Header or subject lines that do not name a left-out variable (when one does not)."""
    kept = tuple(line for line in lines if not variables_in(line) & left_out)
    return kept or lines


def _absences(sampled: pd.DataFrame, seed: int) -> pd.DataFrame:
    rows, n = sampled.copy(), len(sampled)
    month = rows["month"].astype(int).to_numpy()
    # Month 0 means 'not recorded' in the source table: any month will do.
    fill_in = np.random.default_rng(seed + 1).integers(1, 13, size=n)
    rows["month"] = np.where(month == 0, fill_in, month)
    return rows
