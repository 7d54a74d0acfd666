"""What every job's `main` shares: argument parsing and one-line errors (exit code 2)."""

import argparse
import contextlib
import errno
import sys
from collections.abc import Callable

from synth import ConfigError, RunFailed
from synth.config.options import add_options

INTERRUPTED = 130  # the shell's code for a process ended by Ctrl-C


def guarded(run: Callable, *args) -> int:
    """Run a job; bad input, a failed run, Ctrl-C and a full disk end in one line on stderr
    (what was kept, how to go on), never a traceback."""
    try:
        run(*args)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except RunFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"interrupted: {_kept(args)}", file=sys.stderr)
        return INTERRUPTED
    except Exception as e:
        lost = _cluster_loss(e)
        if lost:
            _disconnect()  # Ray's forwarded worker lines would come after ours
            print(
                f"error: the Ray cluster lost a node or worker mid-run ({lost}): "
                f"{_kept(args, 'once the cluster has its nodes back,')} (Ray's log: "
                "/tmp/ray/session_latest/logs)",
                file=sys.stderr,
            )
            return 1
        if not _disk_full(e):
            raise
        print(f"error: no space left on the disk: {_kept(args)}", file=sys.stderr)
        return 1
    return 0


# Ray's errors for a node, worker or actor gone (a raylet killed, a machine lost), as
# opposed to an error in the job's own code, which stays a traceback: a bug to report.
LOST = {
    "RayActorError",
    "ActorDiedError",
    "ActorUnavailableError",
    "NodeDiedError",
    "WorkerCrashedError",
    "LocalRayletDiedError",
    "ObjectLostError",
    "OwnerDiedError",
    "ObjectFetchTimedOutError",
    "ObjectReconstructionFailedError",
    "RaySystemError",
}


def _cluster_loss(error: BaseException) -> str | None:
    """The name of the Ray error saying a node or worker was lost, anywhere in the
    error's chain (Ray Data wraps it), or None."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        names = {k.__name__ for k in type(error).__mro__ if k.__module__.startswith("ray")}
        if names & LOST:
            return type(error).__name__
        error = getattr(error, "cause", None) or error.__cause__ or error.__context__
    return None


def _kept(args, when: str = "free space if needed and") -> str:
    output = getattr(args[0], "output", None) if args else None
    where = f" in {output}" if output else ""
    return f"the shards written{where} are kept; {when} rerun the same command to resume after them"


def _disconnect() -> None:
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        # a half-gone cluster may refuse; the line that follows is what matters
        with contextlib.suppress(Exception):
            ray.shutdown()


def _disk_full(error: BaseException) -> bool:
    """ENOSPC, also when Ray wraps it (an actor's write failed) or it caused another error."""
    while error is not None:
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            return True
        if "[Errno 28]" in str(error):  # a wrapped copy, its type lost
            return True
        error = error.__cause__ or error.__context__
    return False


def parser_for(module, name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"hrsynth {name}", description=module.__doc__.splitlines()[0]
    )
    add_options(parser, module.OPTIONS, getattr(module, "NAMES", None))
    return parser


def main_for(module, name: str, argv=None) -> int:
    return guarded(module.run, parser_for(module, name).parse_args(argv))
