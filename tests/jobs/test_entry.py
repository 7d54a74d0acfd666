"""How every job ends when it cannot go on: one line, a code, and what to do next."""

import argparse
import errno

import pytest

from jobs.entry import INTERRUPTED, guarded
from synth import ConfigError

ARGS = argparse.Namespace(output="out/run")


def _raise(error):
    def run(args):
        raise error

    return run


def test_ctrl_c_is_one_line_saying_what_is_kept_and_how_to_resume(capsys):
    assert guarded(_raise(KeyboardInterrupt()), ARGS) == INTERRUPTED
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "interrupted: the shards written in out/run are kept" in err
    assert "rerun the same command" in err


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.ENOSPC, "No space left on device"),
        RuntimeError("ray.exceptions.RayTaskError: OSError: [Errno 28] No space left on device"),
    ],
)
def test_a_full_disk_is_one_line(capsys, error):
    try:  # raised while handling it, as a library re-raises
        try:
            raise error
        except Exception as inner:
            raise ValueError("writing the shard failed") from inner
    except ValueError as outer:
        wrapped = outer
    assert guarded(_raise(wrapped), ARGS) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: no space left on the disk") and err.count("\n") == 1


def test_other_errors_still_raise():
    with pytest.raises(ZeroDivisionError):
        guarded(_raise(ZeroDivisionError()), ARGS)


def ray_errors():
    import ray.exceptions as rx

    died = rx.ActorDiedError()
    in_task = rx.RayTaskError("map_batches", "Traceback …", died)  # as Ray Data wraps it
    return [died, rx.NodeDiedError("node 1 died"), rx.WorkerCrashedError(), in_task]


@pytest.mark.parametrize("make", range(4))
def test_a_lost_node_is_one_line_saying_what_is_kept_and_how_to_resume(capsys, make):
    """A worker node's raylet killed mid-run: 4 Ray tracebacks and no word of the shards
    kept (the rerun resumes them)."""
    error = ray_errors()[make]
    assert guarded(_raise(error), ARGS) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: the Ray cluster lost a node")
    assert "the shards written in out/run are kept" in err and "rerun the same command" in err


def test_an_error_in_the_jobs_own_code_on_ray_still_raises():
    import ray.exceptions as rx

    bug = rx.RayTaskError("map_batches", "Traceback …", ZeroDivisionError())
    with pytest.raises(rx.RayTaskError):
        guarded(_raise(bug), ARGS)


def remote_traceback(last_line: str) -> str:
    return (
        "ray::MapWorker(MapBatches(Scrubber)).__init__() (pid=1, ip=192.0.2.2)\n"
        '  File "bad_mod.py", line 3, in __init__\n'
        f"{last_line}"
    )


def test_an_actors_own_error_is_the_users_one_line_whichever_way_ray_wraps_it(capsys):
    """Ray keeps an actor's ConfigError as a wrapped class (its text the remote
    traceback), or, when the actor's constructor raised it, as ActorDiedError holding
    only that text; both end in the user's line, exit 2, not in 'the cluster lost a node'."""
    import ray.exceptions as rx

    said = "detector fewer returned 1 span lists for 2 documents; fix it"
    wrapped = rx.RayTaskError(
        "submit", remote_traceback(f"synth.ConfigError: {said}"), ConfigError(said)
    ).as_instanceof_cause()
    in_udf = rx.RayTaskError(  # Ray Data's UserCodeException: the cause only as text
        "submit", remote_traceback(f"synth.ConfigError: {said}"), RuntimeError("UDF failed")
    )
    constructor = rx.ActorDiedError(
        rx.RayTaskError("__init__", remote_traceback(f"synth.ConfigError: {said}"), ValueError())
    )
    for error in (wrapped, in_udf, constructor):
        assert guarded(_raise(error), ARGS) == 2
        assert capsys.readouterr().err == f"error: {said}\n"


def test_an_actor_that_cannot_start_is_not_called_a_lost_node(capsys, monkeypatch, tmp_path):
    """A constructor's own bug: rerunning fails the same way, so the line says so, with
    the last line of its error and the log folder of the session in use (here no session
    is connected: RAY_TMPDIR's)."""
    import sys

    import ray.exceptions as rx

    cause = rx.RayTaskError("__init__", remote_traceback("OSError: no model file"), OSError())
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    monkeypatch.setitem(sys.modules, "ray", None)  # no session in this process
    assert guarded(_raise(rx.ActorDiedError(cause)), ARGS) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lost a node" not in err
    assert err.startswith("error: a Ray actor could not start (OSError: no model file); this is ")
    assert err.rstrip().endswith(f"(Ray's log: {tmp_path}/ray/session_latest/logs)")
