"""Learn how a user's staff write, under ε-DP: a writing profile from private tickets.

    python -m jobs.profile --texts tickets.jsonl --epsilon 4 --output out/profile.json
    hrsynth profile --texts tickets.csv --label-field category --label-map labels.yaml …

Releases noisy histograms of public features (synth/style/features.py): the label mix,
length per label, greeting, closing, header lines, paragraphs, register, all lower case,
no final punctuation, slips, and the forms of dates, counts of days, stays, amounts and
percents, and (with --variables-field) how often each variable is left out; blends them with the shipped defaults (synth/style/prior.py) and writes the
profile with its ledger. `generate` reads it (`tickets.writing_profile`). Reads private
rows: never prints or writes one, nor any unnoised count.
"""

import sys

from jobs.entry import main_for
from synth import ConfigError
from synth.config.options import options_from
from synth.config.private_options import ProfileOptions

OPTIONS = ProfileOptions


def taxonomy_labels(labels: list, label_map: str | None) -> list[str] | None:
    """Every ticket's taxonomy label, or None when no ticket has one."""
    from synth.io.files import read_yaml
    from synth.kinds.tickets.taxonomy import load_taxonomy, resolve_label

    if all(label is None for label in labels):
        return None
    missing = sum(label is None for label in labels)
    if missing:
        raise ConfigError(
            f"--texts: {missing} of {len(labels)} tickets have no label; label every ticket, "
            "or name a field none has with --label-field to learn no label mix"
        )
    taxonomy = load_taxonomy()
    mapping = read_yaml(label_map, "label map") if label_map else {}
    if not isinstance(mapping, dict):
        raise ConfigError(
            f"--label-map {label_map}: expected a mapping {{your label: taxonomy label}}"
        )
    known = {name: resolve_label(taxonomy, target) for name, target in mapping.items()}
    unknown = sorted({label for label in labels if label not in known and label not in taxonomy})
    if unknown:
        shown = ", ".join(repr(x) for x in unknown[:3])
        raise ConfigError(
            f"--texts: {len(unknown)} labels are not taxonomy labels ({shown}"
            f"{', …' if len(unknown) > 3 else ''}); map them with --label-map "
            f"(taxonomy labels: {', '.join(taxonomy)})"
        )
    return [known.get(label, label) for label in labels]


def check_variable_names(written: list, field: str) -> None:
    """Refuse variable names no taxonomy label has: each would count every ticket as
    leaving the real variable out, and generate would drop it almost always."""
    from synth.kinds.tickets.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    known = {v for sub in taxonomy.values() for v in sub.variables}
    unknown = sorted({name for names in written if names for name in names} - known)
    if unknown:
        shown = ", ".join(repr(x) for x in unknown[:3])
        raise ConfigError(
            f"--variables-field {field}: {len(unknown)} variable names are not the "
            f"taxonomy's ({shown}{', …' if len(unknown) > 3 else ''}); name them as the "
            f"taxonomy does: {', '.join(sorted(known))}"
        )


def read_tickets(args) -> list:
    """The private tickets as the profile reads them (synth.style.features.Ticket): text,
    taxonomy label when labelled, the variables written when --variables-field is set."""
    from synth.deid.corpus import read_documents
    from synth.style.features import Ticket

    documents = read_documents(
        args.texts,
        args.text_field,
        "id",
        args.label_field,
        args.encoding,
        variables_field=args.variables_field,
    ).to_pydict()
    labels = taxonomy_labels(documents["label"], args.label_map)
    if args.variables_field and labels is None:
        raise ConfigError(
            f"--variables-field {args.variables_field}: which variables a ticket leaves out "
            "depends on its label; label the tickets (--label-field) or drop the option"
        )
    written = documents.get("variables") or [None] * len(documents["text"])
    if args.variables_field:
        check_variable_names(written, args.variables_field)
    return [
        Ticket(
            text,
            labels[i] if labels else None,
            frozenset(written[i]) if written[i] is not None else None,
        )
        for i, text in enumerate(documents["text"])
    ]


def run(options) -> dict:
    args = options_from(ProfileOptions, options)
    from synth.dp.noise import SECURE, noise_source
    from synth.io.storage import write_json
    from synth.style.prior import load_prior, taxonomy_categories
    from synth.style.release import release

    tickets = read_tickets(args)
    labelled = tickets[0].label is not None
    cats = taxonomy_categories(labels=labelled, written=args.variables_field is not None)
    profile = release(
        tickets, cats, args.epsilon, load_prior(), noise_source(), args.prior_strength
    )
    profile["noise"] = SECURE
    profile["source"] = {"texts": str(args.texts), "labelled": labelled}
    write_json(args.output, profile)
    ledger = profile["ledger"]
    print(
        f"writing profile of {len(tickets)} tickets: {len(cats)} histograms, ε spent "
        f"{ledger['spent']:.4g} of {args.epsilon} ({ledger['relation']})"
    )
    print(f"profile written to {args.output}")
    return profile


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "profile", argv)


if __name__ == "__main__":
    sys.exit(main())
