"""The default job on embedded data: fit the demo DP model, generate 64 tickets locally.

    make demo        (or: python -m jobs.demo [--output out/demo] [--num-docs 64] [--verbose])

1. Fits PrivBayes on the demo private table (UCI Absenteeism, data/demo/) at ε = 1.
2. Generates 8 tickets per label with SmolLM2-135M on a local Ray cluster.
3. Prints the summary table and where the Parquet shards are.
"""

import argparse
import sys

from jobs import fit, generate
from jobs.entry import guarded
from synth.config.generate_options import GenerateOptions
from synth.config.private_options import FitOptions


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m jobs.demo")
    p.add_argument("--output", default="out/demo")
    p.add_argument("--num-docs", type=int, default=64)
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument(
        "--verbose",
        action="store_true",
        help="show Ray's own lines and the engine's loading bars on the console as well",
    )
    args = p.parse_args(argv)
    model_file = "out/absence_model.json"

    # Option objects: every other setting keeps its documented default (synth/config/*_options.py).
    fit_options = FitOptions(
        data="data/demo/absenteeism.csv",
        schema="configs/absenteeism_schema.yaml",
        epsilon=args.epsilon,
        output=model_file,
    )
    generate_options = GenerateOptions(
        config="configs/tickets.yaml",
        output=args.output,
        num_docs=args.num_docs,
        dp_model=model_file,
        verbose=args.verbose,
    )

    def both():
        fit.run(fit_options)
        generate.run(generate_options)

    return guarded(both)


if __name__ == "__main__":
    sys.exit(main())
