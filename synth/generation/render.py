"""Planned jobs -> finished contract rows: slots filled, text cleaned, entities located,
slips added outside the spans."""

import re

import numpy as np

from synth.contract import NO_VARIABLES
from synth.generation.engine import Engine
from synth.generation.entities import locate
from synth.generation.params import GenerationParams
from synth.generation.rollout import Draft, fill_slots
from synth.generation.slips import add_slips


def render(jobs: list[dict], engine: Engine, params: GenerationParams, style: str, seed: int):
    """Contract rows for `jobs`; `style` is the prompt style of jobs that carry none (CVs)."""
    drafts = [
        Draft(
            j["header"],
            list(j["pieces"]),
            j["instruction"],
            j.get("style", style),
            j.get("target_words"),
            tuple((j.get("surface") or {}).values()),
        )
        for j in jobs
    ]
    batch_seed = seed * 1_000_003 + min(j["index"] for j in jobs)
    fill_slots(drafts, engine, params, batch_seed)
    rows = []
    for job, draft in zip(jobs, drafts):
        text = draft.text()
        entities = locate(text, job["entities"], job.get("surface"))
        if draft.style == "free" and job["entities"] and not entities:
            draft.errors = [NO_VARIABLES]  # the retries ran out: say why, once
        if job.get("slip_rate"):
            slips_rng = np.random.default_rng([seed, job["index"]])
            text, entities = add_slips(text, entities, job["slip_rate"], slips_rng)
        if job.get("doc_type") == "cv":  # 'university_2' -> 'university': one type per kind
            entities = [{**e, "label": re.sub(r"_\d+$", "", e["label"])} for e in entities]
        rows.append(
            {
                "id": job["id"],
                "doc_type": job.get("doc_type", "ticket"),
                "category": job["category"],
                "subcategory": job["subcategory"],
                "label": job["label"],
                "text": text,
                "header": job["header"],
                "entities": entities,
                "attributes": {k: str(v) for k, v in job["attributes"].items()},
                "persona": job["persona"],
                "template_id": job["template_id"],
                "model": engine.model_ref,
                "seed": seed,
                "run_id": job["id"].rsplit("-", 1)[0],
                "prompt_tokens": draft.prompt_tokens,
                "generated_tokens": draft.generated_tokens,
                "error": "; ".join(draft.errors) or None,
            }
        )
    return rows
