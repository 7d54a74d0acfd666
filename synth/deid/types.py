"""The personal-data types, read once from synth/data/deid/types.yaml, and the maps from
each source's labels (Presidio entities, hrsynth variables of tickets and of CVs, persona
fields) to them."""

import functools
from dataclasses import dataclass
from pathlib import Path

from synth.io.files import read_yaml

TYPES_FILE = Path(__file__).resolve().parent.parent / "data" / "deid" / "types.yaml"
# The types a name can be read as: the ones a keep-rule (a technology, a region, a
# resume word) may take back, and the ones a general NER guesses.
NAME_TYPES = ("PERSON", "ORGANIZATION", "LOCATION", "NRP")


@dataclass(frozen=True)
class PersonalTypes:
    names: tuple[str, ...]
    quasi: frozenset[str]  # quasi-identifiers: locations, dates, money, health, …
    by_presidio: dict[str, str]
    by_variable: dict[str, str]
    by_persona: dict[str, str]
    cv_variables: frozenset[str]  # entities of CVs only (the detector reports them in CVs)

    def tag(self, name: str) -> str:
        """The placeholder the tag method writes: [PERSON], [DATE], …"""
        return f"[{name}]"


@functools.cache
def personal_types() -> PersonalTypes:
    doc = read_yaml(TYPES_FILE, "personal-data types")["types"]
    maps = {"presidio": {}, "variables": {}, "persona": {}, "cv_variables": {}}
    for name, entry in doc.items():
        for source, mapping in maps.items():
            for label in entry.get(source, []):
                mapping[label] = name
    return PersonalTypes(
        names=tuple(doc),
        quasi=frozenset(name for name, entry in doc.items() if entry.get("quasi")),
        by_presidio=maps["presidio"],
        by_variable=maps["variables"] | maps["cv_variables"],
        by_persona=maps["persona"],
        cv_variables=frozenset(maps["cv_variables"]),
    )
