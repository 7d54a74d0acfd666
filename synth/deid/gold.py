"""Gold personal-data spans of a synthetic ticket, known by construction: every planted
variable of a personal-data type (its span, `text[start:end]` exact) and every place the
persona's name, e-mail, company or nationality appears in the text. hrsynth's output is
thus a labelled de-identification test set of any size (written by a model from values we
planted: it flatters detectors tuned to our vocabulary; say so beside every number)."""

import re

from synth.deid.spans import Span, resolve
from synth.deid.types import personal_types


def planted_spans(text: str, entities: list[dict], persona: dict | None) -> list[Span]:
    types = personal_types()
    spans = [
        Span(e["start"], e["end"], types.by_variable[e["label"]], "gold")
        for e in entities
        if e["label"] in types.by_variable
    ]
    for field, type_ in types.by_persona.items():
        value = (persona or {}).get(field)
        if not value:
            continue
        for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text):
            spans.append(Span(m.start(), m.end(), type_, "gold"))
    return resolve(spans)


def annotated_spans(entities, personal=()) -> list[Span]:
    """Gold of a hand-labelled document: its entity spans of personal-data types
    ([start, end, variable]) and its `personal` spans ([start, end, TYPE])."""
    by_variable = personal_types().by_variable
    spans = [Span(s, e, by_variable[v], "gold") for s, e, v in entities if v in by_variable]
    return resolve(spans + [Span(s, e, t, "gold") for s, e, t in personal])
