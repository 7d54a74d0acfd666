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
