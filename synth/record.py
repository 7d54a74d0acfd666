"""The planned document: what planning decides, and the only input shape generation takes.

Planning (cheap, deterministic from the seed and the shard, done by the actor that writes
the shard) makes one PlannedDocument per document; rendering turns each into one row of
the output contract (synth.contract). Values are strings by the time they are planned:
they are written into text.
"""

from dataclasses import dataclass


@dataclass(slots=True)
class PlannedDocument:
    index: int  # position in the run: fixes the document id and its random streams
    shard: int  # the output shard it is written to
    run_id: str
    doc_type: str  # a key of synth.kinds.KINDS
    label: str
    category: str
    subcategory: str
    template_id: str
    header: str  # From/To/Subject lines (or the CV's header); may be empty
    pieces: list[str]  # fixed text around the <generate> slots: len = slots + 1
    instruction: str  # the chat style's instruction, or the free style's attribute card
    entities: dict[str, str]  # variable -> sampled value, for the ones the text carries (in
    # order: the locator breaks ties by order)
    attributes: dict[str, str]  # every sampled variable (the row's `attributes`)
    persona: dict[str, str]
    surface: dict[str, str] | None = None  # variable -> the form it is written in
    style: str | None = None  # prompt style; None: the run's (CVs)
    target_words: int | None = None
    slip_rate: float = 0.0
    run_together: float = 0.0  # synth/generation/slips.py: punctuation with no space after
    line_breaks: float = 0.0  # ... spaces inside a sentence typed as line breaks
    lower_case: bool = False  # the whole text in lower case (synth/generation/casing.py)
    bare_end: bool = False  # the message's last full stop dropped
    closing: str = ""  # the sign-off text the document ends with, if any
    # variable -> the entity label its span gets in the output ('university_2' ->
    # 'university'); a variable not named here is its own label. Planning decides it, so
    # rendering needs no knowledge of document kinds.
    entity_labels: dict[str, str] | None = None
    # Per slot: a plain line built from the document's own attributes, written where the
    # model leaves the slot empty after its retries (the row's `fallback_slots`); None or
    # '': the slot stays empty and the row records an error.
    fallbacks: list[str] | None = None
    # The most years of experience any slot may claim (a CV's total); None: no bound.
    most_years: int | None = None

    @property
    def id(self) -> str:
        return f"{self.run_id}-{self.index:08d}"
