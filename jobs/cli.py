"""The `hrsynth` console script: one subcommand per job, same code as `python -m jobs.…`."""

import argparse
import sys

from jobs import (
    cv_experiment,
    deidentify,
    detector,
    evaluate,
    evolve,
    extract,
    fit,
    generate,
    profile,
    push,
    refresh,
    serve,
)
from jobs.entry import guarded
from synth.config.options import add_options

COMMANDS = {
    "extract": extract,
    "fit": fit,
    "profile": profile,
    "evolve": evolve,
    "generate": generate,
    "evaluate": evaluate,
    "cv-experiment": cv_experiment,
    "refresh": refresh,
    "serve": serve,
    "deidentify": deidentify,
    "push": push,
    "detector": detector,
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="hrsynth",
        description="Privacy-preserving synthetic HR text: fit a DP model, generate documents.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in COMMANDS.items():
        command = sub.add_parser(name, help=module.__doc__.splitlines()[0])
        if hasattr(module, "ACTIONS"):  # `hrsynth detector build`: a verb under the noun
            verbs = command.add_subparsers(dest="action", required=True)
            for verb in module.ACTIONS:
                add_options(verbs.add_parser(verb), module.OPTIONS)
        else:
            add_options(command, module.OPTIONS, getattr(module, "NAMES", None))
    args = parser.parse_args(argv)
    module = COMMANDS[args.command]
    return guarded(module.ACTIONS[args.action] if hasattr(module, "ACTIONS") else module.run, args)


if __name__ == "__main__":
    sys.exit(main())
