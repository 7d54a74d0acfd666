"""The dataset card, made from the manifest, and the metadata `datasets` loads by.

Hubs, catalogues and reviewers read a card, not `_manifest.json`. The YAML header is in
the Hugging Face Hub's format: its `configs` tell `datasets.load_dataset(repository)`
which files are the documents (the default configuration) and which the DP samples, so
neither `_manifest.json` nor `_dp_samples.parquet` is read as documents. The body says
what the data is and is not, what privacy budget was spent and what it protects, the
model and its parameters, the counts, the audit, the evaluation scores when there are
any, the known limits, and the command that reproduces it.

An output folder holds its rows alone (synth.io.layout): the card is `_README.md` and
the header also `.huggingface.yaml`, beside the folder in `OUT.hrsynth/`, where `push`
reads them (it uploads `_README.md` as the repository's README.md, and the rows, the
manifest and the DP samples under the names the header gives). A refresh root holds
no shards, so its card is README.md.
"""

import json
from string import Template

import yaml

from synth import DATA_DIR
from synth.io.layout import (
    CARD,  # in an output folder (see above)
    SUFFIX,
)
from synth.io.layout import CARD_METADATA as METADATA
from synth.kinds import kind
from synth.kinds.base import KindBase

ROOT_CARD = "README.md"  # at a refresh root
TEMPLATE = DATA_DIR / "card" / "dataset_card.md"


def size_category(rows: int) -> str:
    for bound, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if rows < bound:
            return name
    return "100K<n<1M" if rows < 1_000_000 else "n>1M"


def header(manifest: dict, prefix: str = "") -> dict:
    """The card's YAML metadata; `prefix`: where the files lie relative to the card (a
    refresh root's card points into its latest version)."""
    shards = f"{prefix}data/part-*.parquet"  # synth.io.shards.DATA: the shards alone
    configs = [{"config_name": "default", "data_files": shards, "default": True}]
    if manifest.get("dp_samples"):
        # beside the rows: at a Hub repository's top (push), or in the version's sibling
        # folder under a refresh root (synth.io.layout)
        samples = manifest["dp_samples"]
        where = f"{prefix.rstrip('/')}{SUFFIX}/{samples}" if prefix else samples
        configs.append({"config_name": "dp_samples", "data_files": where})
    doc_kind = kind(manifest["config"].get("doc_type", "ticket"))
    return {
        "license": "other",
        "license_name": "hrsynth-generated",
        "language": ["en"],
        "pretty_name": f"hrsynth synthetic HR {doc_kind.TITLE}",
        "task_categories": list(doc_kind.CARD_TASKS),
        "size_categories": [size_category(manifest["rows"])],
        "tags": ["synthetic", "differential-privacy", "human-resources", "hrsynth"],
        "configs": configs,
    }


def _profile(manifest: dict) -> list[str]:
    """The writing profile's line: what it learnt from, at what ε."""
    profile = manifest.get("writing_profile")
    if not profile:
        return []
    name = str(profile["file"]).rsplit("/", 1)[-1]
    if not profile["private"]:
        return [f"- `{name}`: a writing profile released without noise (not private)."]
    ledger, evolution = profile["ledger"], profile.get("evolution")
    laplace = sum(e["mechanism"] == "Laplace" for e in ledger["entries"])
    line = (
        f"- `{name}`: a writing profile learnt from {profile['tickets']} private tickets, "
        f"ε {ledger['spent']:.3g} of a budget of {ledger['budget']:.3g} (Laplace noise on "
        f"{laplace} histograms"
    )
    if evolution:
        line += (
            f"; Private Evolution: {evolution['rounds']} rounds of Gaussian-noised nearest-"
            f"candidate votes, ε {evolution['epsilon']:.3g} at δ {evolution['delta']:.3g} "
            "by the PRV accountant"
        )
    line += (
        f"; sequential composition). Neighbouring relation: {ledger['relation']}. It sets "
        "how the tickets are written (traits, lengths, forms, label mix"
        + (", templates" if evolution else "")
        + "), not their values."
    )
    return [line]


def _ledgers(manifest: dict) -> list[str]:
    ledgers = manifest.get("epsilon_ledgers") or {}
    if not ledgers and manifest.get("writing_profile"):
        return _profile(manifest)
    if not ledgers:
        return [
            (
                "No private data was used: no DP model, so every attribute came from public "
                "tables and Faker, and no ε was spent."
            )
        ]
    lines = []
    for path, ledger in ledgers.items():
        name = path.rsplit("/", 1)[-1]
        purposes = {}
        for entry in ledger.get("entries", []):
            kind = entry["purpose"].split(" of ")[0]
            purposes[kind] = purposes.get(kind, 0.0) + entry["epsilon"]
        spent = ", ".join(f"{k}: ε {v:.3g}" for k, v in purposes.items())
        lines.append(
            f"- `{name}`: ε {ledger['spent']:.3g} of a budget of {ledger['budget']:.3g} "
            f"({ledger.get('composition', 'sequential')} composition; {spent})."
        )
        lines.append(
            f"  Neighbouring relation: {ledger.get('relation', 'not recorded')}. In plain "
            "words: anything learnt from these documents would have been about as likely "
            "had any one person's row in the private table been different; the guarantee "
            "covers the attribute values, and the text only repeats them."
        )
    return lines + _profile(manifest)


def _table(counts: dict, head: tuple[str, str]) -> list[str]:
    rows = [f"| {head[0]} | {head[1]} |", "| --- | ---: |"]
    return rows + [f"| {k} | {v} |" for k, v in sorted(counts.items())]


def markdown(
    manifest: dict, scores: list[tuple] | None = None, test: dict | None = None, prefix: str = ""
) -> str:
    """The whole card: the template (synth/data/card/dataset_card.md, prose as data) filled
    from the manifest. `scores`: (task, metric, value) of an evaluation of this data on the
    `test` set (path, documents), when there is one."""
    coverage = (manifest.get("entity_coverage") or {}).get("overall", {})
    evaluation = ""
    if scores:
        evaluation = "\n".join(
            [
                "## Evaluation",
                "",
                (
                    f"Models trained on this data, tested on `{(test or {}).get('path')}` "
                    f"({(test or {}).get('documents')} documents):"
                ),
                "",
                "| task | metric | value |",
                "| --- | --- | ---: |",
                *[f"| {t} | {m} | {v:.3f} |" for t, m, v in scores],
                "",
                "",
            ]
        )
    values = {
        "header": yaml.safe_dump(header(manifest, prefix), sort_keys=False).strip(),
        "pretty_name": header(manifest)["pretty_name"],
        "ledgers": "\n".join(_ledgers(manifest)),
        "audit": _audit_line(manifest),
        "run_id": manifest["run_id"],
        "seed": manifest["seed"],
        "engine": _engine(manifest),
        "card_text": getattr(kind(manifest["config"].get("doc_type", "ticket")), "CARD_TEXT", None)
        or KindBase.CARD_TEXT,
        "prompt_style": json.dumps(manifest.get("prompt_style")),
        "generation_parameters": json.dumps(manifest.get("generation_parameters", {})),
        "rows": manifest["rows"],
        "shards": manifest.get("shards", "?"),
        "tokens_generated": manifest.get("tokens_generated", 0),
        "rows_with_error": manifest.get("rows_with_error", 0),
        "rows_flagged_no_variables": manifest.get("rows_flagged_no_variables", 0),
        "share_rows_with_entity": f"{coverage.get('share_rows_with_entity', 0):.1%}",
        "share_variables_found": f"{coverage.get('share_variables_found', 0):.1%}",
        "rows_per_label": "\n".join(_table(manifest.get("rows_per_label", {}), ("label", "rows"))),
        "evaluation": evaluation,
        "num_docs": manifest["config"].get("num_docs"),
    }
    return Template(TEMPLATE.read_text(encoding="utf-8")).substitute(values)


def _engine(manifest: dict) -> str:
    """The backend and model that ran, as the manifest records them."""
    backend, model = manifest.get("backend"), manifest.get("model")
    ran = f"backend `{backend}`, model `{model}`" if backend else f"model `{model}`"
    if not manifest.get("tokens_generated"):
        ran += " (it generated no token)"
    return ran


def _audit_line(manifest: dict) -> str:
    settings, audit = manifest.get("pii_audit_settings"), manifest.get("pii_audit") or {}
    if not settings or settings["policy"] == "off":
        return "The personal-data audit of the generated text did not run for this output."
    return (
        f"Personal-data audit of the generated text (policy `{settings['policy']}`, types "
        f"{', '.join(settings['types'])}): {audit.get('rows_with_findings', 0)} of "
        f"{manifest['rows']} documents hold something a detector reads as personal data that "
        f"hrsynth did not plant ({_counts(audit.get('findings_per_type', {}))})."
    )


def _counts(counts: dict) -> str:
    return ", ".join(f"{t}: {n}" for t, n in sorted(counts.items())) or "none found"


def write_card(
    folder: str, manifest: dict, scores=None, test: dict | None = None, prefix: str = ""
) -> None:
    """The card and `.huggingface.yaml` in `folder` (path or URI), atomically; a folder
    with a `prefix` is a refresh root, whose card is README.md."""
    from synth.io.layout import kept
    from synth.io.storage import join, write_atomic

    card = markdown(manifest, scores, test, prefix).encode("utf-8")
    meta = yaml.safe_dump(header(manifest, prefix), sort_keys=False).encode("utf-8")
    if prefix:  # a refresh root holds no rows: its card is the Hub's README.md
        meta_at, card_at = join(str(folder), METADATA), join(str(folder), ROOT_CARD)
    else:
        meta_at, card_at = kept(folder, METADATA), kept(folder, CARD)
    write_atomic(meta_at, lambda stream: stream.write(meta))
    write_atomic(card_at, lambda stream: stream.write(card))
