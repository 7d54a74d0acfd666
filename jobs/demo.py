"""The default job on embedded data: fit the demo DP model, generate 64 tickets locally.

    make demo        (or: python -m jobs.demo [--output out/demo] [--num-docs 64])

1. Fits PrivBayes on the demo private table (UCI Absenteeism, data/demo/) at ε = 1.
2. Generates 8 tickets per label with SmolLM2-135M on a local Ray cluster.
3. Prints the summary table and where the Parquet shards are.
"""

import argparse
import sys

from jobs import fit, generate
from jobs.entry import guarded, parser_for


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m jobs.demo")
    p.add_argument("--output", default="out/demo")
    p.add_argument("--num-docs", type=int, default=64)
    p.add_argument("--epsilon", type=float, default=1.0)
    args = p.parse_args(argv)
    model_file = "out/absence_model.json"

    # Through each job's own parser, so every other option keeps its documented default.
    fit_args = parser_for(fit, "fit").parse_args(
        [
            "--data",
            "data/demo/absenteeism.csv",
            "--schema",
            "configs/absenteeism_schema.yaml",
            "--epsilon",
            str(args.epsilon),
            "--output",
            model_file,
        ]
    )
    generate_args = parser_for(generate, "generate").parse_args(
        [
            "--config",
            "configs/tickets.yaml",
            "--output",
            args.output,
            "--num-docs",
            str(args.num_docs),
            "--dp-model",
            model_file,
        ]
    )

    def both():
        fit.run(fit_args)
        generate.run(generate_args)

    return guarded(both)


if __name__ == "__main__":
    sys.exit(main())
