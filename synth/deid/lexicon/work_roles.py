"""People named by their role at work ("my manager", "a senior colleague"), from the
lexicon in synth/data/deid/work_roles.yaml.

In a complaint the person complained about is as often a role as a name: "my manager",
"our new shift manager", "a colleague". The BIO model misses most of them (people wrote
them 2.3 words long on average), and where the sentence also names someone, the name is
replaced and the role phrase left. This step marks each role phrase as the person
(`to_who`) in a ticket whose kind holds one; the parse then completes it with a team or a
name in apposition (synth.deid.analyzer.clauses, rule `people`). The surrogate keeps the phrase's
shape: the determiner and modifiers as written, the role swapped for another of its
group, the same swap for the same role throughout the document.
"""

import re
from functools import cache

from synth import DATA_DIR
from synth.io.files import read_yaml

ROLE_TYPE = "to_who"


@cache
def work_roles() -> dict:
    """{'determiners', 'modifiers', 'group_of': role -> its group's roles}."""
    doc = read_yaml(DATA_DIR / "deid" / "work_roles.yaml", "work roles")
    group_of = {role.lower(): tuple(roles) for roles in doc["groups"].values() for role in roles}
    return {"determiners": doc["determiners"], "modifiers": doc["modifiers"], "group_of": group_of}


def _alternation(words) -> str:
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


@cache
def role_phrase() -> re.Pattern:
    """A determiner, up to two modifiers, a role (plural too); groups `det`, `mods`, `role`."""
    r = work_roles()
    return re.compile(
        rf"(?<![\w-])(?P<det>{_alternation(r['determiners'])})\s+"
        rf"(?P<mods>(?:(?:{_alternation(r['modifiers'])})\s+){{0,2}})"
        rf"(?P<role>{_alternation(r['group_of'])})(?P<plural>s)?(?![\w-])",
        re.IGNORECASE,
    )


def role_phrases(text: str) -> list[tuple[int, int]]:
    """(start, end) of every role phrase in `text`."""
    return [m.span() for m in role_phrase().finditer(text)]


def tagged_role_phrases(text: str, words: list[tuple[int, int]], tags: list[str]) -> list[str]:
    """BIO tags with each role phrase whose words are untagged (or the person already)
    marked as the person (`to_who`)."""
    out = list(tags)
    for start, end in role_phrases(text):
        inside = [i for i, (a, b) in enumerate(words) if a >= start and b <= end]
        if not inside or any(out[i] != "O" and out[i][2:] != ROLE_TYPE for i in inside):
            continue
        first, last = inside[0], inside[-1]
        if first > 0 and out[first - 1][2:] == ROLE_TYPE:
            continue  # inside a person's span that starts earlier: leave it whole
        out[first] = f"B-{ROLE_TYPE}"
        out[first + 1 : last + 1] = [f"I-{ROLE_TYPE}"] * (last - first)
    return out


def role_surrogate(original: str, swapped: dict[str, str], pick) -> str | None:
    """The role phrase that opens `original` with its role swapped (None: no role phrase
    opens it). `swapped`: role -> its replacement so far in the document (updated);
    `pick(options)` draws one. What follows the phrase (a team, a name) is dropped: it
    names the person too."""
    m = role_phrase().match(original.strip())
    if m is None:
        return None
    role = " ".join(m["role"].lower().split())
    if role not in swapped:
        others = [r for r in work_roles()["group_of"][role] if r.lower() != role]
        swapped[role] = pick(others)
    new = swapped[role] + (m["plural"] or "")
    return f"{m['det']} {m['mods']}{new}"
