"""Driver-side sampling: every document's label, persona, variables and template.

Cheap and deterministic from the seed; this is what Ray then distributes for the
expensive part (generation). Each planned document is a plain dict ("job").
"""

import datetime as dt
import json
from pathlib import Path

import numpy as np
import pandas as pd

from synth import ConfigError
from synth.config import GenerateConfig
from synth.persona import make_personas
from synth.privbayes import from_dict
from synth.samplers import SamplingContext, sampler_for
from synth.taxonomy import TAXONOMY_DIR, load_taxonomy, resolve_label
from synth.template import fill, fixed_pieces


def load_dp_model(path: str | None):
    if not path:
        return None
    try:
        return from_dict(json.loads(Path(path).read_text()))
    except FileNotFoundError:
        raise ConfigError(f"dp_model {path} not found; run `hrsynth fit …` first "
                          "(make demo does) or fix the path") from None
    except (json.JSONDecodeError, KeyError):
        raise ConfigError(f"dp_model {path} is not a valid model file; refit it") from None


def chosen_labels(cfg: GenerateConfig, taxonomy) -> list[str]:
    if cfg.labels == "all":
        return list(taxonomy)
    if not isinstance(cfg.labels, list) or not cfg.labels:
        raise ConfigError("labels must be 'all' or a non-empty list of labels")
    return [resolve_label(taxonomy, name) for name in cfg.labels]


def instruction(sub, persona: dict, values: dict) -> str:
    facts = "; ".join(f"{k.replace('_', ' ')}: {values[k]}" for k in sub.variables)
    return (f"Write a short email from {persona['name']}, who works at {persona['company']}, "
            f"to the HR department. The writer {sub.description}. Facts: {facts}. "
            "Write in the first person, stay on this topic, and use no placeholders.")


def plan_documents(cfg: GenerateConfig, run_id: str) -> tuple[list[dict], dict]:
    """All cfg.num_docs jobs in index order, and notes for the manifest."""
    if cfg.doc_type == "cv":
        from synth.cv.plan import plan_cvs

        return plan_cvs(cfg, run_id, load_dp_model(cfg.dp_model))
    taxonomy = load_taxonomy(cfg.taxonomy_dir or TAXONOMY_DIR)
    labels = chosen_labels(cfg, taxonomy)
    rng = np.random.default_rng(cfg.seed)
    per_doc = np.array([labels[i % len(labels)] for i in range(cfg.num_docs)], dtype=object)
    rng.shuffle(per_doc)
    personas = make_personas(cfg.num_docs, cfg.countries, rng)
    ctx = SamplingContext(reference_date=dt.date.fromisoformat(cfg.reference_date))
    model = load_dp_model(cfg.dp_model)
    notes = {"dp_models": {}, "dp_samples": None}
    values: list[dict] = [{} for _ in range(cfg.num_docs)]
    for label in labels:
        sub = taxonomy[label]
        rows = np.flatnonzero(per_doc == label)
        if len(rows) == 0:
            continue
        sampler = sampler_for(sub.sampler, label)
        if sub.sampler == "health_absence":
            if model is None:
                raise ConfigError(f"label '{label}' needs a DP absence model: set dp_model "
                                  "(run `hrsynth fit`) or drop the label")
            sampled_rows = model.sample(len(rows), cfg.seed)
            ctx.absences = _absences(sampled_rows, cfg.seed)
            notes["dp_samples"] = sampled_rows.assign(id=[f"{run_id}-{i:08d}" for i in rows])
            notes["dp_models"][cfg.dp_model] = model.to_dict()["ledger"] | {
                "degree": model.degree, "used_for": label,
                "holdout": model.fit_info.get("holdout")}
        sampled = sampler(len(rows), rng, [personas[i] for i in rows], ctx)
        for k, i in enumerate(rows):
            values[i] = {name: sampled[name][k] for name in sampled}
    jobs = []
    for i in range(cfg.num_docs):
        sub, persona = taxonomy[per_doc[i]], personas[i]
        template = sub.templates[rng.integers(len(sub.templates))]
        all_values = {**persona, **values[i]}
        header = "\n".join([
            f"From: {persona['name']} <{persona['company_email']}>",
            fill(sub.headers[rng.integers(len(sub.headers))], all_values),
            "Subject: " + fill(sub.subjects[rng.integers(len(sub.subjects))], all_values),
        ])
        jobs.append({
            "index": i,
            "shard": i // cfg.shard_size,
            "id": f"{run_id}-{i:08d}",
            "label": sub.label,
            "category": sub.category,
            "subcategory": sub.subcategory,
            "template_id": template.id,
            "header": header,
            "pieces": fixed_pieces(template.body, all_values),
            "instruction": instruction(sub, persona, values[i]),
            "entities": {k: values[i][k] for k in sub.variables},
            "attributes": values[i],
            "persona": persona,
        })
    return jobs, notes


def _absences(sampled: pd.DataFrame, seed: int) -> pd.DataFrame:
    rows, n = sampled.copy(), len(sampled)
    month = rows["month"].astype(int).to_numpy()
    # Month 0 means 'not recorded' in the source table: any month will do.
    fill_in = np.random.default_rng(seed + 1).integers(1, 13, size=n)
    rows["month"] = np.where(month == 0, fill_in, month)
    return rows
