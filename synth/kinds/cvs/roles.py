"""A role list and its job titles: the public side of a user's own CV corpus.

A corpus brings its own labels ("ADVOCATE", "INFORMATION-TECHNOLOGY"). The role list is
public: written by the user (a roles file) or declared in the schema, never read from
the private rows. Labels match it whatever their case. A role's job title is the words a
CV uses for it (prompts, and what the masked ablation hides); a role without one gets
`default_title`: its label with '-' and '_' as spaces, lower-cased when written all in
capitals, short all-capital labels kept as acronyms (HR, BPO). A role may also list its
skills ("Database Administrator: {title: database administrator, skills: [backup and
recovery, …]}"): public words the user knows the role by, planted at the head of each
generated CV's skills section (a 135M model asked for "Key skills:" writes generic ones),
and its duties ("duties: [planned and tested backups, …]"): what a work-experience line
says when the model leaves it empty (synth/kinds/cvs/fallbacks.py).
"""

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from synth import ConfigError
from synth.io.files import read_settings_text, read_yaml

ACRONYM_MAX = 3  # all-capital labels this short are acronyms: HR, BPO, SAP
# The most roles a list may name: each is a class of the classifier and a value of the DP
# network's role attribute (noise on every one). A 100,000-line file ran 120 s in silence
# before this bound (issue 94, ROL3).
MAX_ROLES = 1000


def default_title(label: str) -> str:
    words = " ".join(str(label).replace("-", " ").replace("_", " ").split())
    letters = words.replace(" ", "")
    if words.isupper() and len(letters) > ACRONYM_MAX:
        return " ".join(
            w if len(w) <= ACRONYM_MAX and len(words.split()) > 1 else w.lower()
            for w in words.split()
        )
    return words


@dataclass(frozen=True)
class RoleEntry:
    """One role of a role list: its job title (None: default_title), skills and duties."""

    title: str | None = None
    skills: tuple[str, ...] = ()
    duties: tuple[str, ...] = ()


def read_roles(path: str | Path) -> dict[str, str | None]:
    """{role: title or None} from YAML (a mapping role → title or {title, skills,
    duties}, or a list of roles) or plain text (one role per line, '#' comments)."""
    return {role: entry.title for role, entry in read_role_entries(path).items()}


def read_role_skills(path: str | Path) -> dict[str, list[str]]:
    """{role: its skills} for the roles of the file that list some."""
    return {role: list(e.skills) for role, e in read_role_entries(path).items() if e.skills}


def role_entry(role: str, value, where: str) -> RoleEntry:
    """One 'role: value' entry: a title, or {title, skills, duties} (lists of words)."""
    if not isinstance(value, dict):
        return RoleEntry(str(value).strip() if value else None)
    unknown = set(value) - {"title", "skills", "duties"}
    lists = {k: value.get(k) or [] for k in ("skills", "duties")}
    if unknown or not all(isinstance(v, list) for v in lists.values()):
        raise ConfigError(
            f"{where}: role {role!r} takes a title, or 'title:', 'skills:' and 'duties:' "
            f"(lists of words); got {sorted(value)}"
        )
    title = value.get("title")
    return RoleEntry(
        str(title).strip() if title else None,
        *(tuple(str(s).strip() for s in v if s) for v in lists.values()),
    )


def read_role_entries(path: str | Path) -> dict[str, RoleEntry]:
    """{role: its entry} from a --roles file, in the file's order."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"--roles {path}: file not found; check the path")
    if path.suffix.lower() in (".yaml", ".yml"):
        doc = read_yaml(path, "--roles")
        if isinstance(doc, list):
            doc = {r: None for r in doc}
        if not isinstance(doc, dict):
            raise ConfigError(
                f"--roles {path}: expected a mapping 'role: job title' (title may be "
                "empty) or a list of roles"
            )
        roles = {str(k).strip(): role_entry(k, v, f"--roles {path}") for k, v in doc.items()}
    else:
        lines = read_settings_text(path, "--roles").splitlines()
        roles = {s: RoleEntry() for line in lines if (s := line.split("#")[0].strip())}
    if len(roles) < 2:
        raise ConfigError(f"--roles {path}: {len(roles)} role(s); a classifier needs at least 2")
    if len(roles) > MAX_ROLES:
        raise ConfigError(
            f"--roles {path}: {len(roles):,} roles, more than {MAX_ROLES:,}; a role list "
            "names the classes of the CVs (one role per line): check that this is the file "
            "you meant"
        )
    folded = Counter(r.casefold() for r in roles)
    twins = sorted(r for r in roles if folded[r.casefold()] > 1)
    if twins:
        raise ConfigError(
            f"--roles {path}: {twins} differ only in case; labels are matched ignoring "
            "case, so keep one"
        )
    return roles


def role_matcher(roles) -> dict[str, str]:
    """casefolded label -> the role as listed."""
    return {str(r).casefold(): str(r) for r in roles}
