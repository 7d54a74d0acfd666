"""Planned documents -> finished contract rows: slots filled, text cleaned, entities
located, the writer's casing applied, slips added outside the spans."""

from collections.abc import Callable

import numpy as np

from synth.contract import NO_VARIABLES
from synth.generation.casing import bare_end, lower_case
from synth.generation.engine import Engine
from synth.generation.entities import (
    attach_connectives,
    attach_following,
    attached_words,
    locate,
)
from synth.generation.params import GenerationParams
from synth.generation.rollout import Draft, fill_slots
from synth.generation.seeds import request_seed
from synth.generation.slips import add_slips, typed_spacing
from synth.record import PlannedDocument


def drafts_of(docs: list[PlannedDocument], style: str, seed: int = 0) -> list[Draft]:
    """What the rollout fills, one draft per planned document, its draws named by the
    run's seed and the document."""
    return [
        Draft(
            d.header,
            list(d.pieces),
            d.instruction,
            d.style or style,
            d.target_words,
            tuple((d.surface or {}).values()),
            seed=request_seed(seed, d.index),
            fallbacks=tuple(d.fallbacks or ()),
            most_years=d.most_years,
        )
        for d in docs
    ]


def render(
    docs: list[PlannedDocument],
    engine: Engine,
    params: GenerationParams,
    style: str,
    seed: int,
    on_finished: Callable[[list[int]], None] | None = None,
) -> list[dict]:
    """Contract rows for `docs`; `style` is the prompt style of documents that carry none.
    `on_finished` gets the `index` of each document as its last slot is written."""
    drafts = drafts_of(docs, style, seed)
    batch_seed = seed * 1_000_003 + min(d.index for d in docs)
    finished = None
    if on_finished is not None:
        finished = lambda positions: on_finished([docs[i].index for i in positions])
    fill_slots(drafts, engine, params, batch_seed, finished)
    rows = []
    for doc, draft in zip(docs, drafts):
        text = draft.text()
        entities = attach_following(text, locate(text, doc.entities, doc.surface), attached_words())
        entities = attach_connectives(text, entities)
        if draft.style == "free" and doc.entities and not entities:
            draft.errors = [NO_VARIABLES]  # the retries ran out: say why, once
        if doc.bare_end:
            text, entities = bare_end(text, entities, doc.closing)
        if doc.lower_case:
            text = lower_case(text)
        if doc.slip_rate:
            slips_rng = np.random.default_rng([seed, doc.index])
            text, entities = add_slips(text, entities, doc.slip_rate, slips_rng)
        if doc.run_together or doc.line_breaks:
            typing_rng = np.random.default_rng([seed, doc.index, 1])
            text, entities = typed_spacing(
                text, entities, doc.run_together, doc.line_breaks, typing_rng
            )
        label_of = doc.entity_labels or {}
        rows.append(
            {
                "id": doc.id,
                "doc_type": doc.doc_type,
                "category": doc.category,
                "subcategory": doc.subcategory,
                "label": doc.label,
                "text": text,
                "header": doc.header,
                "entities": [
                    {**e, "label": label_of.get(e["label"], e["label"])} for e in entities
                ],
                "attributes": doc.attributes,
                "persona": doc.persona,
                "template_id": doc.template_id,
                "model": engine.model_ref,
                "seed": seed,
                "run_id": doc.run_id,
                "prompt_tokens": draft.prompt_tokens,
                "generated_tokens": draft.generated_tokens,
                "error": "; ".join(draft.errors) or None,
                "fallback_slots": draft.fallback_slots,
            }
        )
    return rows


def render_fitting(
    docs: list[PlannedDocument],
    engine: Engine,
    params: GenerationParams,
    style: str,
    seed: int,
    on_finished: Callable[[list[int]], None] | None = None,
) -> list[dict]:
    """render(), retried as two halves (and so on down to one document) when the engine
    runs out of memory: a batch too large for the device costs time, not the job. The
    halves sample from their own seeds, so they differ from what the whole batch would.
    A document a failed batch had finished is finished again by its half: `on_finished`
    may hear of an index twice."""
    try:
        return render(docs, engine, params, style, seed, on_finished)
    except Exception as e:
        if not _out_of_memory(e) or len(docs) == 1:
            raise
    half = len(docs) // 2
    print(f"out of memory at a batch of {len(docs)}: retrying as {half} + {len(docs) - half}")
    return render_fitting(docs[:half], engine, params, style, seed, on_finished) + render_fitting(
        docs[half:], engine, params, style, seed, on_finished
    )


def _out_of_memory(error: Exception) -> bool:
    # torch.OutOfMemoryError (CUDA) or MemoryError (host), without importing torch here
    return isinstance(error, MemoryError) or type(error).__name__ == "OutOfMemoryError"
