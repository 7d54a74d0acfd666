"""Labels per kind, inside the model: the BIO tags a ticket may hold and those a CV may
hold, applied to the model's scores before it picks a tag, in training and in use.

A detector trained on tickets and CVs learned `company` and `city` from CVs; in a ticket
it tagged places and airports `company`, and a gate after the model then dropped those
words (issue 83: 17 places and 5 airports lost). With the labels of the other kind masked
out of the softmax, the model picks the best tag its kind allows (the place stays a
`location`), and the training loss never pushes a ticket's words away from a CV's labels.

- a ticket: every tag but the CV-only entities' (synth/data/deid/types.yaml `cv_variables`);
- a CV: every tag but the clause types' (span_hygiene.yaml `clause_types`: what people
  write about each other, which a CV does not hold).

The kind of a document is read as deidentify reads it: a CV is written under a CV's
section headings (synth.deid.analyzer.kinds.cv_shaped). The tags of each kind travel in
the model's config (`kind_tags`), so a detector is read with the masks it was trained
with; one built before them has none, and the gate after the model still applies.
"""

from collections.abc import Sequence

KINDS = ("ticket", "cv")
CONFIG_KEY = "kind_tags"


def kind_tags(tags: Sequence[str]) -> dict[str, list[str]]:
    """For each kind, the tags (of `tags`, in their order) a document of it may hold."""
    from synth.deid.analyzer.hygiene import conventions
    from synth.deid.types import personal_types

    left_out = {
        "ticket": personal_types().cv_variables,
        "cv": frozenset(conventions()["clause_types"]),
    }
    return {kind: [t for t in tags if t == "O" or t[2:] not in left_out[kind]] for kind in KINDS}


def document_kind(document: str) -> str:
    """ "cv" for a document written under a CV's headings, else "ticket"."""
    from synth.deid.analyzer.kinds import cv_shaped

    return "cv" if cv_shaped(document) else "ticket"


def allowed_tags(tags: Sequence[str], by_kind: dict[str, list[str]], kind: str) -> list[bool]:
    """Per tag of `tags`, whether a document of `kind` may hold it."""
    if kind not in by_kind:
        raise ValueError(f"kind {kind!r}: the model's kind_tags name only {sorted(by_kind)}")
    allowed = set(by_kind[kind])
    return [t in allowed for t in tags]
