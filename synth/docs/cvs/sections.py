"""CV sections and role titles, read from synth/data/cv/ (or a folder in the config).

Checked when loaded, so a typo in a prompt fails before any model is loaded: every
prompt has exactly one <generate>, uses only known variables, and a repeated section
repeats over universities or companies.
"""

from dataclasses import dataclass
from pathlib import Path

from synth import ConfigError
from synth.docs.cvs.vocabulary import CV_DATA
from synth.docs.persona import PERSONA_FIELDS
from synth.generation.template import count_slots, variables_in
from synth.io.files import read_yaml

COMMON = set(PERSONA_FIELDS) | {"role", "title", "a_title", "total_years"}
REPEATED = {"universities": {"university", "degree"}, "companies": {"company", "years"}}


@dataclass(frozen=True)
class Section:
    id: str
    heading: str
    repeat: str | None
    prompts: tuple[str, ...]


@dataclass(frozen=True)
class CVTemplates:
    header: str
    sections: tuple[Section, ...]
    titles: dict


def load_templates(folder: str | Path | None = None) -> CVTemplates:
    folder = Path(folder) if folder else CV_DATA
    path = folder / "sections.yaml"
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
        sections.append(Section(sid, s.get("heading", ""), repeat, prompts))
    titles = read_yaml(folder / "roles.yaml", "CV role titles") or {}
    return CVTemplates(str(doc.get("header", "")), tuple(sections), dict(titles))
