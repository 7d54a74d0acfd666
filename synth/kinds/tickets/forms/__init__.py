"""Surface forms: each sampled value written the way people write it.

A ticket's writer has habits: one form per kind of value (dates as '30/6', money as
'45k'), drawn per ticket from the weights in `synth/data/forms/forms.yaml`, used for every
value of that kind in the ticket when it applies (a relative date only applies near the
reference date). The sampled value stays the entity's `value`; the rendered form is what
the text and the span carry. The tests read every form back
(tests/synth/kinds/tickets/form_readers.py), which shows that a span still means its
value ('next Monday' from the reference date is the date).

One module per family: dates, amounts (counts, money, percentages), phrases (lay words,
people, places); the catalogue and Writer in catalogue.py.
"""

import numpy as np

from synth.kinds.tickets.forms.amounts import (
    render_day_count,
    render_money,
    render_percent,
    render_stay,
)
from synth.kinds.tickets.forms.catalogue import (
    FORMS_DIR,
    MODES,
    Catalogue,
    Writer,
    allowed,
    load_catalogue,
)
from synth.kinds.tickets.forms.dates import parse_date, render_date
from synth.kinds.tickets.forms.phrases import (
    _render_phrase,
    _render_written,
    airport_short_names,
    airports,
    render_airport,
    render_place,
    render_target,
)

__all__ = [
    "FORMS_DIR",
    "MODES",
    "RENDERERS",
    "Catalogue",
    "Writer",
    "airport_short_names",
    "airports",
    "allowed",
    "load_catalogue",
    "parse_date",
    "render",
    "render_date",
    "render_values",
]


def render_values(
    values: dict[str, str],
    writer: Writer,
    mode: str,
    rng: np.random.Generator,
    form_weights: dict | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """({variable: text as written}, {variable: form used}) for one ticket.

    One habit per kind, drawn once; a value it does not fit draws among the forms that
    fit (and that form becomes the habit). A value no allowed form fits stays as sampled
    (form 'canonical'). `form_weights` (a writing profile's, used with mode 'all')
    replace the catalogue's weights per kind."""
    catalogue, habits = load_catalogue(), {}
    surface, used = {}, {}
    for name, value in values.items():
        kind = catalogue.kind_of.get(name)
        if kind is None:
            surface[name], used[name] = value, "canonical"
            continue
        weights = allowed(kind, mode)
        if form_weights and kind in form_weights and mode == "all":
            # a writing profile's shares (synth.kinds.tickets.writing_profile)
            weights = {f: form_weights[kind].get(f, 0.0) for f in weights}
            weights = {f: v for f, v in weights.items() if v > 0} or allowed(kind, mode)
        if kind not in habits:
            habits[kind] = _draw(weights, rng)
        options = dict(weights)
        while options:
            form = habits[kind] if habits[kind] in options else _draw(options, rng)
            text = render(kind, form, value, writer, rng)
            if text is not None:
                surface[name], used[name] = text, form
                habits[kind] = form  # a habit that did not fit gives way to one that did
                break
            options.pop(form)
        else:
            surface[name], used[name] = value, "canonical"
    return surface, used


def _draw(weights: dict[str, float], rng: np.random.Generator) -> str:
    names = list(weights)
    p = np.array([weights[n] for n in names], float)
    return names[rng.choice(len(names), p=p / p.sum())]


def render(kind: str, form: str, value: str, writer: Writer, rng) -> str | None:
    """`value` written in `form`, or None when the form does not apply to it."""
    return RENDERERS[kind](form, value, writer, rng)


RENDERERS = {
    "date": render_date,
    "day_count": render_day_count,
    "stay": render_stay,
    "money": render_money,
    "percent": render_percent,
    "health_reason": _render_phrase("health_reason", grammar="reason", lay_inside=True),
    "complaint": _render_written("complaint"),
    "change_reason": _render_written("reason_of_change"),
    "life_event": _render_phrase("life_event", grammar="description_life_event"),
    "complaint_target": render_target,
    "place": render_place,
    "airport": render_airport,
}
