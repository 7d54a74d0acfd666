"""What every job's `main` shares: argument parsing and one-line errors (exit code 2)."""

import argparse
import sys
from collections.abc import Callable

from synth import ConfigError, RunFailed
from synth.config.options import add_options


def guarded(run: Callable, *args) -> int:
    """Run a job; a ConfigError becomes 'error: …' on stderr, never a traceback."""
    try:
        run(*args)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except RunFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def parser_for(module, name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"hrsynth {name}", description=module.__doc__.splitlines()[0]
    )
    add_options(parser, module.OPTIONS)
    return parser


def main_for(module, name: str, argv=None) -> int:
    return guarded(module.run, parser_for(module, name).parse_args(argv))
