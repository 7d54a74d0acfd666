"""The planned document: what the driver decides, and the only input shape generation takes.

Planning (cheap, on the driver, deterministic from the seed) makes one PlannedDocument
per document; Ray carries them to the actors as Arrow struct columns (PLANNED), never as
JSON strings; rendering turns each into one row of the output contract (synth.contract).
Values are strings by the time they are planned: they are written into text.
"""

from dataclasses import dataclass

import pyarrow as pa

from synth.contract import PERSONA

PAIRS = pa.map_(pa.string(), pa.string())  # ordered: the locator breaks ties by order


@dataclass(slots=True)
class PlannedDocument:
    index: int  # position in the run: fixes the document id and its random streams
    shard: int  # the output shard it is written to
    run_id: str
    doc_type: str  # a key of synth.docs.KINDS
    label: str
    category: str
    subcategory: str
    template_id: str
    header: str  # From/To/Subject lines (or the CV's header); may be empty
    pieces: list[str]  # fixed text around the <generate> slots: len = slots + 1
    instruction: str  # the chat style's instruction, or the free style's attribute card
    entities: dict[str, str]  # variable -> sampled value, for the ones the text carries
    attributes: dict[str, str]  # every sampled variable (the row's `attributes`)
    persona: dict[str, str]
    surface: dict[str, str] | None = None  # variable -> the form it is written in
    style: str | None = None  # prompt style; None: the run's (CVs)
    target_words: int | None = None
    slip_rate: float = 0.0
    # variable -> the entity label its span gets in the output ('university_2' ->
    # 'university'); a variable not named here is its own label. Planning decides it, so
    # rendering needs no knowledge of document kinds.
    entity_labels: dict[str, str] | None = None

    @property
    def id(self) -> str:
        return f"{self.run_id}-{self.index:08d}"


PLANNED = pa.schema(
    [
        ("index", pa.int64()),
        ("shard", pa.int64()),
        ("run_id", pa.string()),
        ("doc_type", pa.string()),
        ("label", pa.string()),
        ("category", pa.string()),
        ("subcategory", pa.string()),
        ("template_id", pa.string()),
        ("header", pa.string()),
        ("pieces", pa.list_(pa.string())),
        ("instruction", pa.string()),
        ("entities", PAIRS),
        ("attributes", PAIRS),
        ("persona", PERSONA),
        ("surface", PAIRS),
        ("style", pa.string()),
        ("target_words", pa.int64()),
        ("slip_rate", pa.float64()),
        ("entity_labels", PAIRS),
    ]
)
MAPS = ("entities", "attributes", "surface", "entity_labels")


def planned_table(docs: list[PlannedDocument]) -> pa.Table:
    """Planned documents as one Arrow table (struct and map columns, no JSON)."""
    rows = []
    for doc in docs:
        row = {name: getattr(doc, name) for name in PLANNED.names}
        for name in MAPS:
            row[name] = None if row[name] is None else list(row[name].items())
        rows.append(row)
    return pa.Table.from_pylist(rows, schema=PLANNED)


def planned_documents(table: pa.Table) -> list[PlannedDocument]:
    """The inverse of planned_table: equal documents back, maps in their order."""
    docs = []
    for row in table.select(PLANNED.names).to_pylist():
        for name in MAPS:
            row[name] = None if row[name] is None else dict(row[name])
        docs.append(PlannedDocument(**row))
    return docs
