"""CV sections and role titles, read from synth/data/cv/ (or a folder in the config).

A `taxonomy_dir` may hold either file or both: a missing one is the embedded one, so a
new label set needs only its roles.yaml. A role without a title there is written with
synth.kinds.cvs.roles.default_title.

Checked when loaded, so a typo in a prompt fails before any model is loaded: every
prompt has exactly one <generate>, uses only known variables, and a repeated section
repeats over universities or companies.
"""

from dataclasses import dataclass, field
from pathlib import Path

from synth import ConfigError
from synth.contract import PERSONA_FIELDS
from synth.generation.template import count_slots, variables_in
from synth.io.files import read_yaml
from synth.kinds.cvs.roles import default_title, role_entry
from synth.kinds.cvs.vocabulary import CV_DATA

COMMON = set(PERSONA_FIELDS) | {
    "role",
    "title",
    "a_title",
    "total_years",
    "role_skills",
    "city",
    "languages",
    "duty",
    "other_duty",
}
# Variables a fallback line may use beyond its prompt's (synth.kinds.cvs.role_words).
FALLBACK_ONLY = {"more_skills", "hobbies"}
REPEATED = {
    "universities": {"university", "degree", "graduation_year", "study_skill"},
    "companies": {"company", "years"},
}


@dataclass(frozen=True)
class Section:
    id: str
    heading: str
    repeat: str | None
    prompts: tuple[str, ...]
    # Per prompt variant: what its slot says when the model leaves it empty ('' : none).
    fallbacks: tuple[str, ...] = ()


@dataclass(frozen=True)
class CVTemplates:
    header: str
    sections: tuple[Section, ...]
    titles: dict
    skills: dict = field(default_factory=dict)  # role -> its public skills (roles.yaml)
    duties: dict = field(default_factory=dict)  # role -> its duties (roles.yaml)

    def title(self, role: str) -> str:
        return self.titles.get(role) or default_title(role)


def taxonomy_file(folder: str | Path | None, name: str) -> Path:
    """`name` in the user's folder when it is there, else the embedded one."""
    if folder and not Path(folder).is_dir():
        raise ConfigError(f"taxonomy_dir {folder}: not a folder; check the path in the config")
    own = Path(folder, name) if folder else None
    return own if own is not None and own.is_file() else CV_DATA / name


def load_templates(folder: str | Path | None = None) -> CVTemplates:
    path = taxonomy_file(folder, "sections.yaml")
    doc = read_yaml(path, "CV sections")
    if not isinstance(doc, dict) or not isinstance(doc.get("sections"), list):
        raise ConfigError(f"CV sections {path}: expected 'header' and a 'sections' list")
    sections = []
    for i, s in enumerate(doc["sections"]):
        sid, repeat = s.get("id", f"#{i}"), s.get("repeat")
        if repeat is not None and repeat not in REPEATED:
            raise ConfigError(
                f"CV sections {path}: section '{sid}' repeats over {repeat!r}; "
                f"use one of {sorted(REPEATED)}"
            )
        prompts = tuple(s.get("prompts") or ())
        if not 2 <= len(prompts) <= 5:
            raise ConfigError(
                f"CV sections {path}: section '{sid}' has {len(prompts)} "
                "prompt variants; give 2 to 5"
            )
        allowed = COMMON | REPEATED.get(repeat, set())
        for p in prompts:
            if count_slots(p) != 1:
                raise ConfigError(
                    f"CV sections {path}: a prompt of section '{sid}' needs exactly one <generate>"
                )
            unknown = variables_in(p) - allowed
            if unknown:
                raise ConfigError(
                    f"CV sections {path}: section '{sid}' uses unknown "
                    f"variable(s) {sorted(unknown)}; known: {sorted(allowed)}"
                )
        fallbacks = _fallbacks(
            s.get("fallback"), len(prompts), f"CV sections {path}: section '{sid}'"
        )
        unknown = set().union(*(variables_in(f) for f in fallbacks)) - allowed - FALLBACK_ONLY
        if unknown:
            raise ConfigError(
                f"CV sections {path}: the fallback of section '{sid}' uses unknown "
                f"variable(s) {sorted(unknown)}; known: {sorted(allowed | FALLBACK_ONLY)}"
            )
        sections.append(Section(sid, s.get("heading", ""), repeat, prompts, fallbacks))
    roles_path = taxonomy_file(folder, "roles.yaml")
    doc_roles = read_yaml(roles_path, "CV role titles") or {}
    if not isinstance(doc_roles, dict):
        raise ConfigError(f"CV role titles {roles_path}: expected a mapping 'role: job title'")
    entries = {
        str(k): role_entry(k, v, f"CV role titles {roles_path}") for k, v in doc_roles.items()
    }
    return CVTemplates(
        str(doc.get("header", "")),
        tuple(sections),
        {role: e.title for role, e in entries.items() if e.title},
        {role: list(e.skills) for role, e in entries.items() if e.skills},
        {role: list(e.duties) for role, e in entries.items() if e.duties},
    )


def _fallbacks(value, variants: int, where: str) -> tuple[str, ...]:
    """A section's fallback lines, one per prompt variant: none, one for all, or a list
    as long as the prompts."""
    if value is None:
        return ("",) * variants
    if isinstance(value, str):
        return (value,) * variants
    if (
        isinstance(value, list)
        and len(value) == variants
        and all(isinstance(v, str) for v in value)
    ):
        return tuple(value)
    raise ConfigError(
        f"{where}: fallback takes one line, or a list of {variants} lines (one per prompt)"
    )
