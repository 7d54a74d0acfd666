"""How every job ends when it cannot go on: one line, a code, and what to do next."""

import argparse
import errno

import pytest

from jobs.entry import INTERRUPTED, guarded

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
