"""The `hrsynth` console script: one subcommand per job, same code as `python -m jobs.…`."""

import argparse
import sys

from jobs import cv_experiment, deidentify, evaluate, extract, fit, generate, push, refresh, serve
from jobs.entry import guarded
from synth.config.options import add_options

COMMANDS = {
    "extract": extract,
    "fit": fit,
    "generate": generate,
    "evaluate": evaluate,
    "cv-experiment": cv_experiment,
    "refresh": refresh,
    "serve": serve,
    "deidentify": deidentify,
    "push": push,
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="hrsynth",
        description="Privacy-preserving synthetic HR text: fit a DP model, generate documents.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in COMMANDS.items():
        add_options(sub.add_parser(name, help=module.__doc__.splitlines()[0]), module.OPTIONS)
    args = parser.parse_args(argv)
    return guarded(COMMANDS[args.command].run, args)


if __name__ == "__main__":
    sys.exit(main())
