"""The words a CV is written from besides its DP attributes: its role's skills and duties
(roles.yaml), its owner's languages (countries.yaml), and what a fallback line needs.

A 135M model asked for "Key skills:" or "Responsibilities:" writes about anything; the
role's own public words, planted in the prompt, keep a section on its role, and a
section the model still leaves empty is written from the same words (its `fallback` in
sections.yaml). A role whose entry lists none takes the general words of
fallback_words.yaml, which fit any job. Nothing here is personal.
"""

from functools import cache

from synth import ConfigError
from synth.io.files import read_yaml
from synth.kinds.cvs.vocabulary import CV_DATA
from synth.kinds.persona import load_countries

# Skills of a role's public list planted in a CV's skills section: enough to name the
# role's field, few enough that the model still writes some of its own.
PLANTED_SKILLS = 5
# Skills a fallback line names ('a, b and c').
FALLBACK_SKILLS = 3
HOBBIES = 2


@cache
def general_words() -> dict[str, list[str]]:
    path = CV_DATA / "fallback_words.yaml"
    doc = read_yaml(path, "CV fallback words") or {}
    if not all(isinstance(doc.get(k), list) and doc[k] for k in ("skills", "duties", "hobbies")):
        raise ConfigError(
            f"CV fallback words {path}: needs non-empty lists skills, duties, hobbies"
        )
    return {k: [str(w) for w in doc[k]] for k in ("skills", "duties", "hobbies")}


def spoken(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def languages_of(country_code: str) -> str:
    """'German (native) and English (fluent)'; 'English (native)' where English is first."""
    country = load_countries().get(country_code)
    first = country.language if country else "English"
    return "English (native)" if first == "English" else f"{first} (native) and English (fluent)"


class RoleWords:
    """One CV's draws from its role's words, in a fixed order from `rng`: the planted
    skills, then a cycle of the rest for fallback lines, the duties (two per employer)
    and the hobbies."""

    def __init__(self, skills: list[str] | None, duties: list[str] | None, rng):
        general = general_words()
        own = list(skills or [])
        order = [own[i] for i in rng.permutation(len(own))] if own else []
        self.planted = order[:PLANTED_SKILLS]
        rest = order[PLANTED_SKILLS:] or order or general["skills"]
        self._rest, self._next = rest, 0
        duties = list(duties or []) or general["duties"]
        self.duties = [duties[i] for i in rng.permutation(len(duties))]
        hobbies = general["hobbies"]
        self.hobbies = spoken([hobbies[i] for i in rng.permutation(len(hobbies))[:HOBBIES]])

    def role_skills(self) -> str:
        """'A, B, C, ' (the prompt's ${role_skills}), '' for a role without skills."""
        return ", ".join(self.planted) + ", " if self.planted else ""

    def next_skill(self) -> str:
        """The next skill of the cycle alone (an education entry's subject)."""
        skill = self._rest[self._next % len(self._rest)]
        self._next += 1
        return skill

    def more_skills(self) -> str:
        """The next FALLBACK_SKILLS skills of the cycle, as 'a, b and c'."""
        picked = [self._rest[(self._next + k) % len(self._rest)] for k in range(FALLBACK_SKILLS)]
        self._next += FALLBACK_SKILLS
        return spoken(list(dict.fromkeys(picked)))

    def duty(self, entry: int) -> dict[str, str]:
        """${duty} and ${other_duty} for the entry-th employer (0 outside that section)."""
        n = len(self.duties)
        return {
            "duty": _capital(self.duties[2 * entry % n]),
            "other_duty": _capital(self.duties[(2 * entry + 1) % n]),
        }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
