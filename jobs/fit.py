"""Fit a DP Bayesian network on a private table; what it writes is noised (the ledger says
how much). The other jobs that read private data: extract (CVs -> attribute table),
profile and evolve (a user's tickets), evaluate --private and cv-experiment (checks).

    python -m jobs.fit --data data/demo/absenteeism.csv \
        --schema configs/absenteeism_schema.yaml --epsilon 1.0 --output out/absence_model.json
    ray job submit --working-dir . -- python -m jobs.fit …   (same arguments)

Prints the structure and the ε ledger; never prints or writes a private row.
"""

import sys

from jobs.entry import main_for
from synth import ConfigError
from synth.config.options import options_from
from synth.config.private_options import FitOptions

OPTIONS = FitOptions


def run(options) -> dict:
    args = options_from(FitOptions, options)
    # Imported here, not at the top: diffprivlib and pandas take a second to import, and
    # `hrsynth --help` should not wait for them.
    from synth.dp.holdout import holdout_mask
    from synth.dp.ledger import Ledger
    from synth.dp.noise import SECURE, noise_source
    from synth.dp.privbayes import STRUCTURE_SHARE, THETA, fit
    from synth.dp.schema import encode, read_private_table, schema_from_dict
    from synth.dp.vocab import resolve as resolve_vocabularies
    from synth.io.files import read_yaml
    from synth.io.storage import write_json
    from synth.kinds.cvs.vocabulary import candidates

    if args.structure_share is None:
        args.structure_share = STRUCTURE_SHARE
    if args.theta is None:
        args.theta = THETA
    schema_doc = read_yaml(args.schema, "schema")
    if not isinstance(schema_doc, dict):
        raise ConfigError(f"schema {args.schema}: expected a mapping with 'attributes'")
    if args.roles:
        schema_doc = with_roles(schema_doc, args.roles, args.schema)
    table = read_private_table(args.data, schema_doc, "--data")
    check_roles(table, schema_doc, args)
    held_out = holdout_mask(len(table), args.holdout, args.seed)
    ledger = Ledger(float(args.epsilon))
    schema_doc, fitted, vocabularies = resolve_vocabularies(
        schema_doc,
        table[~held_out],
        args.epsilon,
        ledger,
        noise_source(),
        candidates,
        f"schema {args.schema}",
    )
    schema = schema_from_dict(schema_doc, f"schema {args.schema}")
    codes, clipped = encode(fitted, schema, args.on_out_of_domain)
    graph = read_yaml(args.graph, "graph") if args.graph else None
    net = fit(
        codes,
        schema,
        args.epsilon,
        degree=args.degree,
        graph=graph,
        structure_share=args.structure_share,
        theta=args.theta,
        ledger=ledger,
    )
    doc = net.to_dict()
    doc["fit"] = _fit_record(args, len(table), held_out, vocabularies, SECURE)
    write_json(args.output, doc)
    _report(args, doc, net, table, schema, clipped, held_out)
    return doc


def with_roles(schema_doc: dict, roles_file: str, schema_path: str) -> dict:
    """The schema with its 'role' values replaced by the --roles list (public: the user's
    own label set, never read from the rows)."""
    from synth.kinds.cvs.roles import read_roles

    role = (schema_doc.get("attributes") or {}).get("role")
    if not isinstance(role, dict):
        raise ConfigError(f"--roles: schema {schema_path} has no 'role' attribute to take them")
    listed = list(read_roles(roles_file))
    attributes = {
        **schema_doc["attributes"],
        "role": {**role, "type": "categorical", "values": listed},
    }
    return {**schema_doc, "attributes": attributes}


def check_roles(table, schema_doc: dict, args) -> None:
    """A CV table whose roles the schema does not list: one line naming --roles, before
    any ε is spent (counts only, never a label of the private rows)."""
    role = (schema_doc.get("attributes") or {}).get("role")
    column = (role or {}).get("column", "role") if isinstance(role, dict) else None
    if not isinstance(role, dict) or column not in table.columns or args.on_out_of_domain == "clip":
        return
    known = {str(v).casefold() for v in role.get("values") or []}
    outside = int((~table[column].astype(str).str.casefold().isin(known)).sum())
    if outside:
        raise ConfigError(
            f"column '{column}': {outside} row(s) have a role the schema {args.schema} does "
            "not list; give your corpus's role list with --roles FILE (one role per line), "
            "or add the roles to the schema's role 'values'"
        )


def _fit_record(args, rows: int, held_out, vocabularies: dict, noise: str) -> dict:
    """What the model file says of its fit: settings, rows, the holdout, the vocabularies.
    Counts of clipped values are unnoised statistics of the private rows: they go to the
    operator's console (_report), never into the model file that leaves the environment."""
    return {
        "epsilon": args.epsilon,
        "noise": noise,
        "on_out_of_domain": args.on_out_of_domain,
        "schema_file": str(args.schema),
        "roles_file": str(args.roles) if args.roles else None,
        "structure_share": args.structure_share,
        "theta": args.theta,
        "degree_asked": args.degree,
        "rows": rows,
        "holdout": {
            "fraction": args.holdout,
            "seed": args.seed,
            "rows_held_out": int(held_out.sum()),
        }
        if args.holdout
        else None,
        "vocabularies": vocabularies or None,
    }


def _report(args, doc: dict, net, table, schema, clipped: dict, held_out) -> None:
    """The operator's console: the structure, the ε spent, what was not modelled or was
    clipped, the holdout, where the model went."""
    print(f"structure (degree {net.degree}):")
    for name in doc["order"]:
        print(f"  {name} <- {', '.join(doc['parents'][name]) or '(none)'}")
    print(
        f"ε ledger: spent {net.ledger.spent:.4g} of {args.epsilon} in "
        f"{len(net.ledger.entries)} mechanism calls ({doc['ledger']['relation']})"
    )
    unused = [c for c in table.columns if c not in {a.column for a in schema.attributes}]
    if unused:
        print(f"columns not in the schema, not modelled: {unused}")
    if any(clipped.values()):
        print(
            "values mapped into their domain (--on-out-of-domain clip; not in the model "
            "file): " + ", ".join(f"{k} {v}" for k, v in clipped.items() if v)
        )
    if args.holdout:
        print(
            f"{int(held_out.sum())} of {len(table)} rows held out for privacy checks "
            f"(share {args.holdout}, seed {args.seed})"
        )
    print(f"model written to {args.output}")


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "fit", argv)


if __name__ == "__main__":
    sys.exit(main())
