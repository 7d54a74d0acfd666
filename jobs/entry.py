"""What every job's `main` shares: argument parsing and one-line errors (exit code 2)."""

import argparse
import contextlib
import errno
import os
import re
import sys
from collections.abc import Callable

from synth import ConfigError, RunFailed, plugins
from synth.config.options import add_options

INTERRUPTED = 130  # the shell's code for a process ended by Ctrl-C


def guarded(run: Callable, *args) -> int:
    """Run a job; bad input, a failed run, Ctrl-C and a full disk end in one line on stderr
    (what was kept, how to go on), never a traceback."""
    try:
        plugins.deadline_s()  # a bad bound from the environment is refused before any work
        run(*args)
    except KeyboardInterrupt:
        print(f"interrupted: {_kept(args)}", file=sys.stderr)
        return INTERRUPTED
    except Exception as e:
        own = _users_error(e)  # ours, or ours as Ray wrapped it in an actor or a task
        if own is not None:
            _disconnect()
            print(f"error: {own}", file=sys.stderr)
            return 2 if isinstance(own, ConfigError) else 1
        logs = _ray_logs()
        died = _actor_start_failure(e)
        if died:
            _disconnect()
            print(
                f"error: a Ray actor could not start ({died}); this is not a lost node: "
                f"rerunning fails the same way until it is fixed (Ray's log: {logs})",
                file=sys.stderr,
            )
            return 1
        lost = _cluster_loss(e)
        if lost:
            _disconnect()  # Ray's forwarded worker lines would come after ours
            print(
                f"error: the Ray cluster lost a node or worker mid-run ({lost}): "
                f"{_kept(args, 'once the cluster has its nodes back,')} (Ray's log: {logs})",
                file=sys.stderr,
            )
            return 1
        if not _disk_full(e):
            raise
        print(f"error: no space left on the disk: {_kept(args)}", file=sys.stderr)
        return 1
    return 0


# The last line of a traceback Ray keeps as text (an actor's failed constructor), where
# it is one of ours: the user's one line.
OWN_LINE = re.compile(r"^(?:synth\.)?(ConfigError|RunFailed): (.+)$", re.MULTILINE)


def _chain(error: BaseException):
    """The error, then what caused it, as Ray chains them (`cause`) and Python does."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = getattr(error, "cause", None) or error.__cause__ or error.__context__


def _users_error(error: BaseException) -> ConfigError | RunFailed | None:
    """A ConfigError or RunFailed anywhere in the chain, as it was raised: Ray re-raises
    an actor's or task's error wrapped (a class deriving from both, whose text is the
    remote traceback), and a failed actor constructor as ActorDiedError holding only the
    traceback's text."""
    for link in _chain(error):
        wrapped = any(k.__name__ == "RayTaskError" for k in type(link).__mro__)
        if isinstance(link, (ConfigError, RunFailed)) and not wrapped:
            return link
        if wrapped or getattr(link, "actor_init_failed", False):  # a remote traceback's text
            found = OWN_LINE.findall(str(link))
            if found:
                kind, message = found[-1]
                return ConfigError(message) if kind == "ConfigError" else RunFailed(message)
    return None


def _actor_start_failure(error: BaseException) -> str | None:
    """The last line of the error an actor's constructor raised (not ours), or None."""
    for link in _chain(error):
        if getattr(link, "actor_init_failed", False):
            lines = [line.strip() for line in str(link).strip().splitlines() if line.strip()]
            return lines[-1] if lines else type(link).__name__
    return None


def _ray_logs() -> str:
    """The log folder of the Ray session in use (RAY_TMPDIR or a cluster's own), not
    Ray's default."""
    ray = sys.modules.get("ray")
    with contextlib.suppress(Exception):
        return ray._private.worker._global_node.get_logs_dir_path()
    return os.path.join(os.environ.get("RAY_TMPDIR") or "/tmp", "ray", "session_latest", "logs")


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
    for link in _chain(error):
        names = {k.__name__ for k in type(link).__mro__ if k.__module__.startswith("ray")}
        if names & LOST:
            return type(link).__name__
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
