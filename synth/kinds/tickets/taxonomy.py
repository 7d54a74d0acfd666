"""The ticket taxonomy, read from one YAML file per subcategory.

Adding a subcategory means adding a file to `synth/data/taxonomy/` (or a folder given in
the config): no code changes. Every template is checked against the declared variables
when the taxonomy loads, so a typo fails before any model is loaded.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from synth import DATA_DIR, ConfigError
from synth.contract import PERSONA_FIELDS
from synth.generation.template import count_slots, variables_in
from synth.io.files import read_yaml

TAXONOMY_DIR = DATA_DIR / "taxonomy"


REGISTERS = ("formal", "informal")


@dataclass(frozen=True)
class Template:
    id: str
    body: str
    register: str = "formal"
    # The first release's templates: `templates: classic` reproduces its tickets, each
    # with the greeting and sign-off it was written with.
    classic: bool = False
    greeting: str | None = None
    sign_off: str | None = None
    # Writes its descriptive variables as clauses in the writer's words (hand clauses in
    # synth/data/clauses/, grammars in synth/data/clauses/grammar/), drawn per ticket.
    # `clauses: {complaint: predicate}` asks a grammar symbol other than `clause` for a
    # variable (a complaint written right after the person it is about).
    clauses: bool = False
    clause_symbols: tuple[tuple[str, str], ...] = ()

    @property
    def slots(self) -> int:
        return count_slots(self.body)


@dataclass(frozen=True)
class Subcategory:
    label: str
    category: str
    subcategory: str
    description: str
    sampler: str
    variables: tuple[str, ...]
    context_variables: tuple[str, ...]
    headers: tuple[str, ...]
    subjects: tuple[str, ...]
    templates: tuple[Template, ...]
    topic_words: tuple[str, ...]
    source: str
    label_variable: str | None = None  # carries the label: never omitted
    omission: dict | None = None  # variable -> share of tickets that leave it out

    def uses(self, template: Template) -> set[str]:
        """The declared variables a template writes into its ticket."""
        return variables_in(template.body) & set(self.variables)


def _require(doc: dict, key: str, path: Path):
    if key not in doc or doc[key] in (None, "", []):
        raise ConfigError(f"taxonomy file {path.name}: missing '{key}'; add it")
    return doc[key]


def load_subcategory(path: Path) -> Subcategory:
    doc = read_yaml(path, "taxonomy")
    if not isinstance(doc, dict):
        raise ConfigError(f"taxonomy file {path.name}: expected a mapping at the top level")
    label = _require(doc, "label", path)
    if "_" not in label:
        raise ConfigError(
            f"taxonomy file {path.name}: label '{label}' must be 'Category_Subcategory'"
        )
    category, subcategory = label.split("_", 1)
    variables = tuple(_require(doc, "variables", path))
    context = tuple(doc.get("context_variables") or ())
    declared = set(variables) | set(context) | set(PERSONA_FIELDS)
    templates = [_template(t, i, path) for i, t in enumerate(_require(doc, "templates", path))]
    ids = [t.id for t in templates]
    if len(set(ids)) != len(ids):
        raise ConfigError(f"taxonomy file {path.name}: template ids repeat; make each unique")
    label_variable, omission = _omission(doc, variables, path)
    headers, subjects = (
        tuple(_require(doc, "headers", path)),
        tuple(_require(doc, "subjects", path)),
    )
    texts = [
        (f"template '{t.id}'", x)
        for t in templates
        for x in (t.body, t.greeting or "", t.sign_off or "")
    ]
    for where, text in (
        [("header", h) for h in headers] + [("subject", s) for s in subjects] + texts
    ):
        unknown = variables_in(text) - declared
        if unknown:
            raise ConfigError(
                f"taxonomy file {path.name}: {where} uses undeclared variable(s) "
                f"{sorted(unknown)}; declare them under 'variables' or fix the name"
            )
    return Subcategory(
        label=label,
        category=category,
        subcategory=subcategory,
        description=_require(doc, "description", path),
        sampler=_require(doc, "sampler", path),
        variables=variables,
        context_variables=context,
        headers=headers,
        subjects=subjects,
        templates=tuple(templates),
        topic_words=tuple(doc.get("topic_words") or ()),
        source=path.name,
        label_variable=label_variable,
        omission=omission,
    )


def _template(t, i: int, path: Path) -> Template:
    if not isinstance(t, dict):
        raise ConfigError(
            f"taxonomy file {path.name}: template #{i} must be a mapping with id and body"
        )
    tid, body = t.get("id", f"#{i}"), t.get("body", "")
    slots = count_slots(body)
    if not 1 <= slots <= 3:
        raise ConfigError(
            f"taxonomy file {path.name}: template '{tid}' has {slots} <generate> slots; use 1 to 3"
        )
    register = t.get("register", "formal")
    if register not in REGISTERS:
        raise ConfigError(
            f"taxonomy file {path.name}: template '{tid}' has register "
            f"'{register}'; use one of {list(REGISTERS)}"
        )
    unknown = set(t) - {"id", "body", "register", "classic", "greeting", "sign_off", "clauses"}
    if unknown:
        raise ConfigError(
            f"taxonomy file {path.name}: template '{tid}' has unknown key(s) {sorted(unknown)}"
        )
    clauses = t.get("clauses", False)
    symbols = clauses if isinstance(clauses, dict) else {}
    if not isinstance(clauses, (bool, dict)) or not all(
        isinstance(v, str) for v in symbols.values()
    ):
        raise ConfigError(
            f"taxonomy file {path.name}: template '{tid}': clauses must be true, false or "
            "a mapping variable -> grammar symbol (complaint: predicate)"
        )
    return Template(
        tid,
        body,
        register,
        bool(t.get("classic", False)),
        t.get("greeting"),
        t.get("sign_off"),
        bool(clauses),
        tuple(symbols.items()),
    )


def _omission(doc: dict, variables: tuple, path: Path) -> tuple[str | None, dict]:
    label_variable = doc.get("label_variable")
    if label_variable is not None and label_variable not in variables:
        raise ConfigError(
            f"taxonomy file {path.name}: label_variable '{label_variable}' is "
            "not one of its variables"
        )
    omission = doc.get("omission") or {}
    for name, rate in omission.items():
        if name not in variables:
            raise ConfigError(
                f"taxonomy file {path.name}: omission names '{name}', which is "
                "not one of its variables"
            )
        if name == label_variable:
            raise ConfigError(
                f"taxonomy file {path.name}: omission names '{name}', the "
                "label_variable; the variable that carries the label is never "
                "left out"
            )
        if not isinstance(rate, (int, float)) or not 0 <= rate < 1:
            raise ConfigError(
                f"taxonomy file {path.name}: omission of '{name}' must be a "
                f"share in [0, 1), got {rate!r}"
            )
    if omission and label_variable is None:
        raise ConfigError(
            f"taxonomy file {path.name}: omission needs a label_variable "
            "(the variable never left out)"
        )
    return label_variable, dict(omission)


def load_taxonomy(folder: Path | str = TAXONOMY_DIR) -> dict[str, Subcategory]:
    """All subcategories in `folder`, keyed by label, in file-name order (read once per
    folder and process: planning, the manifest and evaluation share it; do not mutate)."""
    return dict(_load_taxonomy(str(Path(folder).resolve())))


@cache
def _load_taxonomy(folder: str) -> dict[str, Subcategory]:
    folder = Path(folder)
    files = sorted(folder.glob("*.yaml"))
    if not files:
        raise ConfigError(f"taxonomy folder {folder} has no .yaml files; check 'taxonomy_dir'")
    taxonomy: dict[str, Subcategory] = {}
    for path in files:
        sub = load_subcategory(path)
        if sub.label in taxonomy:
            raise ConfigError(f"label '{sub.label}' is defined twice ({path.name}); keep one")
        taxonomy[sub.label] = sub
    return taxonomy


def resolve_label(taxonomy: dict[str, Subcategory], name: str) -> str:
    """Match a label case-insensitively, as evaluation does."""
    by_lower = {k.lower(): k for k in taxonomy}
    if name.lower() not in by_lower:
        raise ConfigError(f"unknown label '{name}'; known labels: {', '.join(sorted(taxonomy))}")
    return by_lower[name.lower()]
