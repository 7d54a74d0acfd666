"""The `hrsynth` console script: one subcommand per job, same code as `python -m jobs.…`."""

import argparse
import sys

from jobs import fit, generate
from synth import ConfigError

COMMANDS = {"fit": fit, "generate": generate}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="hrsynth", description="Privacy-preserving "
                                     "synthetic HR text: fit a DP model, generate documents.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in COMMANDS.items():
        module.add_arguments(sub.add_parser(name, help=module.__doc__.splitlines()[0]))
    args = parser.parse_args(argv)
    try:
        COMMANDS[args.command].run(args)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
