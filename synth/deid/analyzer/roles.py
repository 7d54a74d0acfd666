"""Roles by context: a predicted role the ticket's kind does not have becomes the role of
its group that the kind does have (synth/data/deid/role_groups.yaml).

The same words play different roles ("Monday 3 March" is a shift date in a shift ticket
and an absence's first day in a health ticket); a token classifier sees a few words on
each side and types such spans by what it saw most. The ticket's kind is the taxonomy label
that explains its predicted roles best (its own roles, then roles of the same group). Works on BIO tags, so both the Ticket Generator thesis's metric and
de-identification see the same spans.
"""

from functools import cache

from synth import DATA_DIR
from synth.io.files import read_yaml


@cache
def role_groups() -> dict[str, dict]:
    """group -> {'mate': weight, 'roles': [roles, in the file's order]}."""
    return dict(read_yaml(DATA_DIR / "deid" / "role_groups.yaml", "role groups"))


def _group(role: str) -> dict:
    return next((g for g in role_groups().values() if role in g["roles"]), {"mate": 0, "roles": []})


def ticket_kind(roles: list[str], roles_of: dict[str, set[str]]) -> str | None:
    """The kind that explains the predicted roles best (None: no role, or a tie): each
    role scores 1 for a kind that has it and its group's `mate` weight for one that has
    another role of its group (a 'number_of_days' beside a 'location' reads as an
    accommodation ticket's duration, not as a health ticket)."""
    scores = {}
    for kind, own in roles_of.items():
        scores[kind] = sum(
            1.0 if role in own else _group(role)["mate"] if set(_group(role)["roles"]) & own else 0
            for role in roles
        )
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] == 0 or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def resolve_roles(
    tags: list[str], roles_of: dict[str, set[str]], kind: str | None = None
) -> list[str]:
    """BIO tags with roles the ticket's kind lacks moved to their group's role in it.

    `roles_of`: taxonomy label -> its variables (context variables included). `kind`: the
    kind the classifier read (synth.deid.analyzer.kinds), else it is read from the roles."""
    spans_roles = [t[2:] for t in tags if t.startswith("B-")]
    dropped = kind_only_roles()["always"]
    if kind in roles_of:
        dropped = dropped | kind_only_roles()["read"]
    else:
        kind = ticket_kind(spans_roles, roles_of)
    if kind is None:
        return join_pieces(tags)
    own, moved = roles_of[kind], {}
    for role in set(spans_roles) - own:
        options = [r for r in _group(role)["roles"] if r in own]
        if options:
            moved[role] = options[0]
        elif role in dropped:
            moved[role] = None
    resolved = [_renamed(t, moved) for t in tags]
    return join_pieces(resolved)


def _renamed(tag: str, moved: dict) -> str:
    """The tag with its role moved (None: dropped)."""
    if tag == "O":
        return tag
    role = moved.get(tag[2:], tag[2:])
    return "O" if role is None else tag[:2] + role


@cache
def kind_only_roles() -> dict[str, frozenset[str]]:
    """Roles only their kind of ticket holds: a span of one in a ticket of another kind
    is dropped; `always`, and `read` too when the classifier read the kind
    (synth/data/deid/kind_only_roles.yaml)."""
    doc = read_yaml(DATA_DIR / "deid" / "kind_only_roles.yaml", "kind-only roles")
    return {key: frozenset(doc[key]) for key in ("always", "read")}


def join_pieces(tags: list[str]) -> list[str]:
    """A span cut in pieces of one role ('02' B-date, '/' B-date, …) made one span: a B-
    right after a tag of the same role continues it."""
    out = list(tags)
    for i in range(1, len(out)):
        if out[i].startswith("B-") and out[i - 1] != "O" and out[i - 1][2:] == out[i][2:]:
            out[i] = "I-" + out[i][2:]
    return out


@cache
def ticket_roles() -> dict[str, set[str]]:
    """taxonomy label -> its variables, context variables included."""
    from synth.kinds.tickets.taxonomy import load_taxonomy

    return {k: set(s.variables) | set(s.context_variables) for k, s in load_taxonomy().items()}


@cache
def _airport_names() -> tuple[set[str], set[str], set[str]]:
    """(airport words, names that are an airport's: official and short names and IATA
    codes, city names) (synth/data/deid/places.yaml, the airport tables)."""
    from synth.kinds.tickets.forms import airport_short_names, airports

    doc = read_yaml(DATA_DIR / "deid" / "places.yaml", "places")
    by_name, per_city = airports()
    names = set(by_name) | {code for code, _ in by_name.values()}
    names |= {n for short in airport_short_names().values() for n in short}
    words = {w.lower() for w in doc["airport_words"]}
    return words, {n.lower() for n in names}, {c.lower() for c in per_city}


def places_named(text: str, words: list[tuple[int, int]], tags: list[str]) -> list[str]:
    """Places and airports as people mark them (docs/annotation.md):
    - an `airport` span that names a city and no airport (no airport word, code or name:
      "Frankfurt", not "Frankfurt airport", "FRA" or "Heathrow") is a `location`;
    - a `location` span that names an airport ("Heathrow", "JFK") is an `airport`;
    - an `airport` span that ends with an airport word ("Airport") takes in the
      capitalised name before it, untagged or tagged as a place ("Brussels Airport",
      "Adolfo Suárez Madrid–Barajas Airport")."""
    airport_words, airport_names, cities = _airport_names()
    out = list(tags)
    from seqeval.metrics.sequence_labeling import get_entities

    places = [s for s in get_entities(out) if s[0] in ("airport", "location")]
    for label, first, last in places:
        phrase = text[words[first][0] : words[last][1]]
        lower = phrase.lower()
        named = lower in airport_names or any(w in airport_words for w in lower.split())
        if label == "airport" and lower.split()[-1] in airport_words:
            first = _name_before(text, words, out, first)
        elif label == "airport" and not named and lower.removeprefix("the ").strip() in cities:
            label = "location"
        elif label == "location" and lower in airport_names and lower not in cities:
            label = "airport"
        out[first : last + 1] = [f"B-{label}"] + [f"I-{label}"] * (last - first)
    return out


NAME_JOINERS = {"-", "–", "'"}


def _name_before(text: str, words, tags: list[str], first: int) -> int:
    """The first word of the capitalised name (untagged or a place, at most six words)
    that ends right before word `first`."""
    start = first
    placeish = ("O", "B-location", "I-location", "B-airport", "I-airport")
    while start > 0 and first - start < 6 and tags[start - 1] in placeish:
        word = text[slice(*words[start - 1])]
        gap = text[words[start - 1][1] : words[start][0]]
        if "\n" in gap or not (word[:1].isupper() or word in NAME_JOINERS):
            break
        start -= 1
    while start < first and text[slice(*words[start])] in NAME_JOINERS:
        start += 1
    return start
