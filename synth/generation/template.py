"""Templates: `${variable}` placeholders and `<generate>` slots.

A template body is split once into fixed pieces and slots; filling a row's variables
gives the fixed text between slots, which generation then interleaves with model text.
"""

import re

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
SLOT = "<generate>"


def variables_in(text: str) -> set[str]:
    """Names of every `${name}` in `text`."""
    return set(VARIABLE.findall(text))


def fill(text: str, values: dict[str, str]) -> str:
    """Replace every `${name}` with its value; a missing value is a programming error."""
    return VARIABLE.sub(lambda m: values[m.group(1)], text)


def fixed_pieces(body: str, values: dict[str, str]) -> list[str]:
    """The filled text around the slots: len(result) == number of slots + 1."""
    return [fill(piece, values) for piece in body.split(SLOT)]


def count_slots(body: str) -> int:
    return body.count(SLOT)
