"""One entity type per kind of value a CV plants ('university_2' is a university)."""

import re


def entity_type(variable: str) -> str:
    """'university_2' -> 'university': one entity type per kind of value."""
    return re.sub(r"_\d+$", "", variable)
