"""The connective that opens a clause as written ("because", "in order to"): the list
synth.generation.entities plants them from, read by the clause completion and kept by the
surrogate of a reason."""

import re


def opening_connective(clause: str) -> tuple[str | None, str | None]:
    """(the connective that opens `clause` as written, its form: 'phrase' or
    'infinitive'), or (None, None); the longest listed one wins."""
    from synth.generation.entities import connectives

    lower = clause.lower()
    listed = connectives()
    found = [
        (len(c), form, c)
        for form in ("phrase", "infinitive")
        for c in listed[form]
        if re.match(rf"{re.escape(c)}\b", lower)
    ]
    if not found:
        return None, None
    size, form, _ = max(found)
    return clause[:size], form
