"""Planning tickets: every document's label, persona, variables and template.

Cheap and deterministic from the seed and the shard: the actor that writes a shard plans
it (synth.kinds.Planner), one synth.record.PlannedDocument per ticket.
"""

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from synth import ConfigError
from synth.dp.privbayes import load_model_file
from synth.generation.template import fill, variables_in
from synth.kinds import ShardPlan, balanced_labels, shard_rows, shard_streams
from synth.kinds.persona import make_personas
from synth.kinds.tickets import clauses
from synth.kinds.tickets.forms import Writer, load_catalogue, render_values
from synth.kinds.tickets.samplers import SamplingContext, sampler_for
from synth.kinds.tickets.shape import (
    FREE_TEMPLATE_ID,
    WritingTally,
    choose_template,
    free_card,
    template_pools,
    ticket_pieces,
)
from synth.kinds.tickets.sources import clause_banks
from synth.kinds.tickets.taxonomy import TAXONOMY_DIR, load_taxonomy, resolve_label
from synth.kinds.tickets.traits import STYLES, draw, draw_shape, traits_from, weights
from synth.record import PlannedDocument


def chosen_labels(cfg, taxonomy) -> list[str]:
    if cfg.run.labels == "all":
        return list(taxonomy)
    if not isinstance(cfg.run.labels, list) or not cfg.run.labels:
        raise ConfigError("labels must be 'all' or a non-empty list of labels")
    return [resolve_label(taxonomy, name) for name in cfg.run.labels]


def read_profile(path: str | None, traits: dict, labels: list[str], omission: dict):
    """The writing profile's settings (synth.kinds.tickets.writing_profile), or None;
    `omission` is the taxonomy's rates (label -> {variable: rate})."""
    if not path:
        return None
    from synth.kinds.tickets.writing_profile import load_profile, settings

    doc = load_profile(path, f"tickets.writing_profile {path}")
    return settings(doc, traits, labels, omission)


def weighted_labels(weights: dict[str, float], n: int, rng: np.random.Generator) -> np.ndarray:
    """n labels drawn from a writing profile's label mix."""
    names = list(weights)
    p = np.array([weights[k] for k in names], float)
    if p.sum() <= 0:
        raise ConfigError(
            "the writing profile gives the run's labels no weight: set label_mix: balanced"
        )
    return np.array(names, dtype=object)[rng.choice(len(names), size=n, p=p / p.sum())]


def instruction(sub, persona: dict, values: dict) -> str:
    facts = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in values.items())
    return (
        f"Write a short email from {persona['name']}, who works at {persona['company']}, "
        f"to the HR department. The writer {sub.description}. Facts: {facts}. "
        "Write in the first person, stay on this topic, and use no placeholders."
    )


# A shard's random streams (synth.kinds.shard_streams): labels, personas and values; writer
# traits, prompt styles and surface forms; the DP model's sampling; absences' month.
PLAN, WRITER, DP, MONTHS = range(4)


class TicketPlanner:
    """Plans a run's tickets shard by shard (synth.kinds.Planner). `cfg`: a
    synth.config.generate.GenerateConfig (not imported, the config layer sits above)."""

    def __init__(self, cfg, run_id: str):
        self.cfg, self.run_id = cfg, run_id
        self.taxonomy = load_taxonomy(cfg.run.taxonomy_dir or TAXONOMY_DIR)
        self.labels = chosen_labels(cfg, self.taxonomy)
        check_clause_symbols(self.taxonomy)
        self.model = load_model_file(cfg.run.dp_model)
        self.reference_date = dt.date.fromisoformat(cfg.run.reference_date)
        self.profile = read_profile(
            cfg.tickets.writing_profile,
            cfg.tickets.traits,
            self.labels,
            {label: dict(self.taxonomy[label].omission or {}) for label in self.labels},
        )
        self.traits = traits_from(self.profile.traits if self.profile else cfg.tickets.traits)
        self.label_weights = (
            {label: self.profile.label_weights.get(label, 0.0) for label in self.labels}
            if self.profile and self.profile.label_weights and cfg.tickets.label_mix == "profile"
            else None
        )
        self.styles = weights(cfg.generator.prompt_style, "prompt_style", STYLES)
        self.pools = template_pools(self.taxonomy, cfg.tickets.templates)
        self.notes = {"dp_models": {}}
        if self.profile:
            self.notes["writing_profile"] = {
                "file": cfg.tickets.writing_profile,
                **self.profile.about,
                "label_mix": "profile" if self.label_weights else "balanced",
            }
        for label in self.labels:
            if self.taxonomy[label].sampler != "health_absence":
                continue
            if self.model is None:
                raise ConfigError(
                    f"label '{label}' needs a DP absence model: set dp_model "
                    "(run `hrsynth fit`) or drop the label"
                )
            self.notes["dp_models"][cfg.run.dp_model] = self.model.to_dict()["ledger"] | {
                "degree": self.model.degree,
                "used_for": label,
                "holdout": self.model.fit_info.get("holdout"),
            }

    def plan_shard(self, shard: int) -> ShardPlan:
        cfg = self.cfg
        first = shard * cfg.run.shard_size
        n = shard_rows(cfg.run.num_docs, cfg.run.shard_size, shard)
        rng, writer_rng, dp_rng, months_rng = shard_streams(cfg.run.seed, shard, 4)
        per_doc = (
            weighted_labels(self.label_weights, n, rng)
            if self.label_weights
            else balanced_labels(self.labels, n, rng, start=first)
        )
        personas = make_personas(n, cfg.run.countries, rng)
        ctx = SamplingContext(reference_date=self.reference_date)
        values, samples = self._values(per_doc, personas, ctx, rng, dp_rng, months_rng, first)
        writing = _Writing(
            traits=self.traits,
            lengths=self.profile.lengths if self.profile else {},
            form_weights=self.profile.form_weights if self.profile else {},
            template_weights=self.profile.template_weights if self.profile else {},
            omission=self.profile.omission if self.profile else {},
            styles=self.styles,
            pools=self.pools,
            value_forms=cfg.tickets.value_forms,
            reference_date=self.reference_date,
            rng=rng,
            writer_rng=writer_rng,
            tally=WritingTally(),
        )
        docs = [
            _ticket(
                first + k,
                shard,
                self.run_id,
                self.taxonomy[per_doc[k]],
                personas[k],
                values[k],
                writing,
            )
            for k in range(n)
        ]
        return ShardPlan(docs, {"writing": writing.tally.summary()}, samples)

    def _values(self, per_doc, personas, ctx, rng, dp_rng, months_rng, first: int):
        """Each ticket's sampled variables, label by label, and the rows the DP model
        sampled for the shard's health tickets (None when it has none)."""
        values: list[dict] = [{} for _ in per_doc]
        samples = None
        for label in self.labels:
            sub = self.taxonomy[label]
            rows = np.flatnonzero(per_doc == label)
            if len(rows) == 0:
                continue
            if sub.sampler == "health_absence":
                sampled_rows = self.model.sample(len(rows), dp_rng)
                ctx.absences = _absences(sampled_rows, months_rng)
                samples = sampled_rows.assign(id=[f"{self.run_id}-{first + i:08d}" for i in rows])
            sampled = sampler_for(sub.sampler, label)(
                len(rows), rng, [personas[i] for i in rows], ctx
            )
            for k, i in enumerate(rows):
                values[i] = {name: sampled[name][k] for name in sampled}
        return values, samples


@dataclass
class _Writing:
    """What writing a ticket draws from: its settings, the two random streams, the tally."""

    traits: object
    lengths: dict  # label -> target length, from a writing profile
    form_weights: dict  # kind -> {form: weight}, from a writing profile
    template_weights: dict  # label -> {template id: weight}, from Private Evolution
    omission: dict  # label -> {variable: rate}, from a writing profile (else the taxonomy's)
    styles: dict
    pools: dict
    value_forms: str
    reference_date: dt.date
    rng: np.random.Generator
    writer_rng: np.random.Generator
    tally: WritingTally


def _kept(sub, template, shape, omission: bool) -> list[str]:
    """The variables a ticket writes. With omission on, a variable the chosen template
    does not write is left out too, and one it writes is kept (planted with its span)
    even when the shape omitted it: an unmarked planted value would teach a detector to
    leave such values alone."""
    return [
        v
        for v in sub.variables
        if (template is not None and omission and v in sub.uses(template))
        or (v not in shape.omitted and (template is None or not omission))
    ]


def _header(sub, persona: dict, values: dict, left_out: set, rng) -> str:
    """From, To and Subject lines, drawn among those that name no left-out variable."""
    headers = _without(sub.headers, left_out)
    subjects = _without(sub.subjects, left_out)
    return "\n".join(
        [
            f"From: {persona['name']} <{persona['company_email']}>",
            fill(headers[rng.integers(len(headers))], values),
            "Subject: " + fill(subjects[rng.integers(len(subjects))], values),
        ]
    )


def _ticket(i, shard, run_id, sub, persona, values, w: _Writing) -> PlannedDocument:
    """One ticket: its shape, style, template, the values' written forms and its header."""
    shape = draw_shape(
        w.traits, sub, w.writer_rng, w.lengths.get(sub.label), w.omission.get(sub.label)
    )
    style = draw(w.styles, w.writer_rng)
    template = (
        None
        if style == "free"
        else choose_template(
            sub,
            w.pools[sub.label],
            shape,
            w.traits.omission,
            w.rng,
            w.template_weights.get(sub.label),
        )
    )
    kept = _kept(sub, template, shape, w.traits.omission)
    as_clauses = set()
    if template is not None and template.clauses:
        values, as_clauses = with_clauses(values, template, w.writer_rng)
    shown = kept + [v for v in sub.context_variables if v in values]
    writer = Writer(persona["country_code"], persona["locale"], w.reference_date)
    surface, forms = render_values(
        {k: values[k] for k in shown if k not in as_clauses},
        writer,
        w.value_forms,
        w.writer_rng,
        w.form_weights,
    )
    # A clause is already written as the writer would: no surface form on top of it.
    surface |= {k: values[k] for k in shown if k in as_clauses}
    forms |= {k: "clause" for k in shown if k in as_clauses}
    all_values = {**persona, **values, **surface}
    left_out = set(sub.variables) - set(kept)
    header = _header(sub, persona, all_values, left_out, w.rng)
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
    pieces = ticket_pieces(template, shape, all_values, w.writer_rng)
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
        pieces=pieces,
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
        run_together=w.traits.run_together,
        line_breaks=w.traits.line_breaks,
        lower_case=shape.lower_case,
        bare_end=shape.bare_end,
        closing=pieces[-1][pieces[-1].rfind("\n\n") :] if shape.sign_off and template else "",
    )


# Share of a type's clauses taken from its hand clauses (synth/data/clauses/*.txt); the
# rest are written by its grammar (synth.kinds.tickets.clauses).
HAND_SHARE = 0.2


def with_clauses(values: dict, template, rng: np.random.Generator) -> tuple[dict, set[str]]:
    """The ticket's descriptive values written as clauses (a clause template's ticket is
    about the clause it writes, not the listed value), and which ones were.

    The symbol is the template's (`clauses: {complaint: predicate}`) or `clause`. A hand
    clause `SUBJECT | PREDICATE` gives its predicate where a predicate is asked for and is
    left out where a whole clause is (its subject would be a person of its own: the
    to_who span the template writes)."""
    symbols = dict(template.clause_symbols)
    out, written = dict(values), set()
    for name, value in values.items():
        symbol = symbols.get(name, "clause")
        hand = [c for c in clause_banks().get(name, ()) if ("|" in c) == (symbol == "predicate")]
        grammar = clauses.has_grammar(name, symbol)
        if not hand and not grammar:
            continue
        if hand and (not grammar or rng.random() < HAND_SHARE):
            out[name] = hand[rng.integers(len(hand))].split("|")[-1].strip()
        else:
            bindings = {"value": _clause_value(name, value, rng), "topic": value}
            out[name] = clauses.write(name, symbol, rng, bindings)
        written.add(name)
    return out, written


def _clause_value(name: str, value: str, rng: np.random.Generator) -> str:
    """The sampled value as the clause writes it: a health reason as listed or in lay
    words (forms/lay_phrases.yaml); others as sampled (a life event picks its clauses)."""
    if name != "reason":
        return value
    options = [value, *load_catalogue().lay["health_reason"].get(value, [])]
    return options[rng.integers(len(options))]


def check_clause_symbols(taxonomy) -> None:
    """Every `clauses: {variable: symbol}` of a template names a grammar symbol: checked
    when the run is planned, not in an actor halfway through it."""
    for sub in taxonomy.values():
        for template in sub.templates:
            for name, symbol in template.clause_symbols:
                if not clauses.has_grammar(name, symbol):
                    raise ConfigError(
                        f"taxonomy {sub.label}: template '{template.id}' asks '{name}: "
                        f"{symbol}', but {clauses.GRAMMAR_DIR}/{name}.yaml has no symbol "
                        f"'{symbol}'; add it or fix the template"
                    )


def _without(lines: tuple[str, ...], left_out: set[str]) -> tuple[str, ...]:
    """Header or subject lines that do not name a left-out variable (when one does not)."""
    kept = tuple(line for line in lines if not variables_in(line) & left_out)
    return kept or lines


def _absences(sampled: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    rows, n = sampled.copy(), len(sampled)
    month = rows["month"].astype(int).to_numpy()
    # Month 0 means 'not recorded' in the source table: any month will do.
    fill_in = rng.integers(1, 13, size=n)
    rows["month"] = np.where(month == 0, fill_in, month)
    return rows
