"""The shipped prior of every writing profile: the histograms of tickets that `generate`
writes with the default config (configs/tickets.yaml). A profile blends its noisy counts
with it, so with little evidence it stays at what generate makes today.

Rebuilt from a generate output (public: synthetic tickets) with
    python -m synth.style.prior OUTPUT_FOLDER
which rewrites synth/data/style/default_profile.json.
"""

import json
import sys
from functools import cache

from synth import DATA_DIR
from synth.kinds.tickets.taxonomy import load_taxonomy
from synth.style.features import Ticket, categories

PRIOR = DATA_DIR / "style" / "default_profile.json"


def taxonomy_categories(labels: bool = True, written: bool = True) -> dict[str, tuple]:
    """The histograms a profile can have, with the shipped taxonomy's labels and the
    variables each label may leave out."""
    taxonomy = load_taxonomy()
    names = tuple(taxonomy)
    omittable = {label: tuple(sub.omission or {}) for label, sub in taxonomy.items()}
    return categories(names if labels else None, omittable if labels and written else None)


def distributions(tickets: list[Ticket], cats: dict[str, tuple]) -> dict[str, dict]:
    """{histogram: {category: share}} of a set of (public) tickets."""
    from synth.style.release import true_counts

    out = {}
    for name, counts in true_counts(tickets, cats).items():
        total = counts.sum()
        out[name] = {c: round(float(x / total), 6) for c, x in zip(cats[name], counts) if x}
    return out


def generated_tickets(folder: str) -> list[Ticket]:
    import pyarrow.parquet as pq

    rows = pq.read_table(folder, columns=["text", "label", "entities"]).to_pylist()
    return [
        Ticket(r["text"], r["label"], frozenset(e["label"] for e in r["entities"]))
        for r in rows
        if r["text"].strip()
    ]


@cache
def load_prior() -> dict[str, dict[str, float]]:
    return json.loads(PRIOR.read_text(encoding="utf-8"))["histograms"]


def main(argv=None) -> int:
    from synth.io.storage import write_json

    (folder,) = argv if argv is not None else sys.argv[1:]
    tickets = generated_tickets(folder)
    doc = {
        "about": "histograms of tickets generated with configs/tickets.yaml "
        "(synth/style/prior.py); public",
        "tickets": len(tickets),
        "histograms": distributions(tickets, taxonomy_categories()),
    }
    write_json(str(PRIOR), doc)
    print(f"{PRIOR}: {len(tickets)} tickets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
