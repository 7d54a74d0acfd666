"""The `hrsynth` console script: one subcommand per job, same code as `python -m jobs.…`.

Only the chosen job is imported and its options built: `hrsynth deidentify` never loads
generate's option tree or its registries. The other subcommands are listed by the first
line of their module's docstring, read without importing them."""

import argparse
import ast
import importlib
import importlib.util
import sys
from pathlib import Path

from jobs.entry import guarded
from synth.config.options import add_options

COMMANDS = {
    "extract": "jobs.extract",
    "fit": "jobs.fit",
    "profile": "jobs.profile",
    "evolve": "jobs.evolve",
    "generate": "jobs.generate",
    "evaluate": "jobs.evaluate",
    "cv-experiment": "jobs.cv_experiment",
    "refresh": "jobs.refresh",
    "serve": "jobs.serve",
    "deidentify": "jobs.deidentify",
    "push": "jobs.push",
    "detector": "jobs.detector",
}


def command(name: str):
    """The job module of subcommand `name`, imported."""
    return importlib.import_module(COMMANDS[name])


def summary(name: str) -> str:
    """The first line of a job module's docstring, from its source."""
    origin = importlib.util.find_spec(COMMANDS[name]).origin
    return ast.get_docstring(ast.parse(Path(origin).read_text())).splitlines()[0]


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named: the first argument that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog="hrsynth",
        description="Privacy-preserving synthetic HR text: fit a DP model, generate documents.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = chosen_command(argv)
    for name in COMMANDS:
        subparser = sub.add_parser(name, help=summary(name))
        if name != chosen:
            continue
        module = command(name)
        if hasattr(module, "ACTIONS"):  # `hrsynth detector build`: a verb under the noun
            verbs = subparser.add_subparsers(dest="action", required=True)
            for verb in module.ACTIONS:
                add_options(verbs.add_parser(verb), module.OPTIONS)
        else:
            add_options(subparser, module.OPTIONS, getattr(module, "NAMES", None))
    args = parser.parse_args(argv)
    module = command(args.command)
    return guarded(module.ACTIONS[args.action] if hasattr(module, "ACTIONS") else module.run, args)


if __name__ == "__main__":
    sys.exit(main())
