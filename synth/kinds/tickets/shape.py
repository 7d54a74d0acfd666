"""A ticket's shape: which template, how it opens and closes, and the free-form card.

Templates hold bodies only; the greeting and sign-off are added here when the ticket's
traits ask for them, from its register's lists (`synth/data/shape.yaml`) or from the
template's own (the classic templates). With omission on, the template is one that
writes exactly the variables the ticket keeps, when the taxonomy has one.
"""

from collections import Counter, defaultdict
from functools import cache

import numpy as np

from synth import DATA_DIR, ConfigError
from synth.generation.template import SLOT, VARIABLE, fill, fixed_pieces
from synth.io.files import read_yaml
from synth.kinds.tickets import clauses
from synth.kinds.tickets.forms import load_catalogue
from synth.kinds.tickets.taxonomy import Subcategory, Template
from synth.kinds.tickets.traits import Shape

FREE_TEMPLATE_ID = "free"  # template_id of a ticket the model wrote whole


@cache
def shape_lists() -> dict:
    doc = read_yaml(DATA_DIR / "shape.yaml", "ticket shape")
    for part in ("greetings", "sign_offs"):
        if not all(doc.get(part, {}).get(r) for r in ("formal", "informal")):
            raise ConfigError(f"shape.yaml: '{part}' needs a formal and an informal list")
    return doc


def template_pools(taxonomy: dict[str, Subcategory], choice) -> dict[str, list[Template]]:
    """Per label, the templates a run may use: 'all', 'classic' or a list of ids."""
    if choice == "all":
        return {label: list(sub.templates) for label, sub in taxonomy.items()}
    if choice == "classic":
        pools = {label: [t for t in sub.templates if t.classic] for label, sub in taxonomy.items()}
        empty = sorted(label for label, pool in pools.items() if not pool)
        if empty:
            raise ConfigError(
                f"templates: classic, but {empty} have no classic template; "
                "use 'all' or list template ids"
            )
        return pools
    if not isinstance(choice, list) or not choice:
        raise ConfigError("templates must be 'all', 'classic' or a list of template ids")
    known = {t.id for sub in taxonomy.values() for t in sub.templates}
    unknown = sorted(set(choice) - known)
    if unknown:
        raise ConfigError(
            f"templates: unknown template id(s) {unknown}; ids are in the taxonomy files"
        )
    pools = {label: [t for t in sub.templates if t.id in choice] for label, sub in taxonomy.items()}
    empty = sorted(label for label, pool in pools.items() if not pool)
    if empty:
        raise ConfigError(f"templates: no listed template for {empty}; list at least one per label")
    return pools


def choose_template(
    sub: Subcategory,
    pool: list[Template],
    shape: Shape,
    omission: bool,
    rng: np.random.Generator,
    weights: dict[str, float] | None = None,
) -> Template:
    """A template of the ticket's register (else any); with omission on, one writing
    exactly the kept variables when one does, else a subset of them, else any. Uniform
    among those, or by `weights` (template id -> weight, from Private Evolution: a
    template missing from it weighs as the smallest one named)."""
    candidates = [t for t in pool if t.register == shape.register] or pool
    if omission:
        kept = set(sub.variables) - shape.omitted
        exact = [t for t in candidates if sub.uses(t) == kept]
        subset = [t for t in candidates if sub.uses(t) <= kept]
        candidates = exact or subset or candidates
    if shape.target_words:  # a short ticket needs a short template
        candidates = [t for t in candidates if fixed_words(t) <= shape.target_words / 2] or [
            min(candidates, key=fixed_words)
        ]
    if weights:
        floor = min(weights.values())
        w = np.array([weights.get(t.id, floor) for t in candidates], dtype=float)
        if w.sum() > 0:
            return candidates[rng.choice(len(candidates), p=w / w.sum())]
    return candidates[rng.integers(len(candidates))]


def fixed_words(template: Template) -> int:
    """Words a template writes itself (a variable counts as one)."""
    return len(VARIABLE.sub("x", template.body.replace(SLOT, " ")).split())


def ticket_pieces(
    template: Template | None, shape: Shape, values: dict, rng: np.random.Generator
) -> list[str]:
    """The fixed text around the slots, greeting and sign-off included as drawn.

    A free-form ticket (no template) is one slot after the greeting; the model writes
    the rest, its own sign-off included."""
    pieces = fixed_pieces(template.body, values) if template else ["", ""]
    lists = shape_lists()
    if shape.greeting:
        own = template.greeting if template else None
        greeting = own or _pick(lists["greetings"][shape.register], rng)
        pieces[0] = fill(greeting, values) + "\n\n" + pieces[0]
    if shape.aside and template:
        # The hand asides (shape.yaml) and, as often, one written by the aside grammar.
        hand = rng.random() < 0.5
        aside = _pick(lists["asides"], rng) if hand else clauses.write("aside", "sentence", rng)
        pieces[-1] = pieces[-1].rstrip() + " " + aside
    if shape.sign_off and template:
        sign_off = template.sign_off or _pick(lists["sign_offs"][shape.register], rng)
        pieces[-1] = pieces[-1] + "\n\n" + fill(sign_off, values)
    return pieces


def _pick(options: list[str], rng: np.random.Generator) -> str:
    return options[rng.integers(len(options))]


def free_card(sub: Subcategory, persona: dict, surface: dict, shape: Shape) -> str:
    """The attribute card a free-form ticket is written from (the survey's way)."""
    facts = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in surface.items())
    tone = "casual" if shape.register == "informal" else "polite"
    length = f", about {shape.target_words} words" if shape.target_words else ""
    close = f" Sign it {persona['first_name']}." if shape.sign_off else ""
    # Short and plain: a 135M model follows a card of a few lines, not a paragraph.
    return (
        f"Write a short email to HR from {persona['name']}. The writer "
        f"{sub.description}. Use the details that feel natural, written as here: "
        f"{facts}. Tone: {tone}{length}. First person, no subject line, no "
        f"placeholders.{close}"
    )


class WritingTally:
    """Counts for the manifest: forms per kind, left-out variables, styles and traits."""

    def __init__(self):
        self.forms = defaultdict(Counter)
        self.left_out = Counter()
        self.traits = defaultdict(Counter)

    def add(
        self,
        sub: Subcategory,
        shape: Shape,
        style: str,
        template: Template | None,
        forms: dict[str, str],
        left_out: set[str],
    ) -> None:
        kind_of = load_catalogue().kind_of
        for name, form in forms.items():
            self.forms[kind_of.get(name, "as_sampled")][form] += 1
        self.left_out.update(f"{sub.label}.{v}" for v in left_out)
        self.traits["prompt_style"][style] += 1
        self.traits["register"][shape.register] += 1
        for name in ("greeting", "sign_off", "header"):
            self.traits[name][str(getattr(shape, name)).lower()] += 1
        self.traits["template"][
            "free" if template is None else "classic" if template.classic else "new"
        ] += 1

    def summary(self) -> dict:
        return {
            "forms_per_kind": {k: dict(sorted(v.items())) for k, v in sorted(self.forms.items())},
            "variables_left_out": dict(sorted(self.left_out.items())),
            "traits": {k: dict(sorted(v.items())) for k, v in sorted(self.traits.items())},
        }
