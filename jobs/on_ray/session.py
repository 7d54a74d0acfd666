"""Joining a Ray cluster from a job: the one named by RAY_ADDRESS, a live one on this
machine, or a new local one.

Ray's own ray.init() follows the address a `ray start` left in <tmp>/ray/ray_current_cluster
even when that cluster is gone (killed, machine rebooted into the same /tmp), and then
waits on the dead address for a very long time. A job checks that the address answers
before joining it and otherwise starts its own cluster, saying why.
"""

import os
import socket
import sys
from contextlib import contextmanager
from pathlib import Path

from synth import RunFailed

# Seconds to wait for the recorded head to accept a connection.
PROBE_TIMEOUT_S = 2.0


def recorded_address_file() -> Path:
    """Where `ray start` records the head's address (Ray honours RAY_TMPDIR)."""
    return Path(os.environ.get("RAY_TMPDIR") or "/tmp", "ray", "ray_current_cluster")


def answers(address: str, timeout: float = PROBE_TIMEOUT_S) -> bool:
    """Whether something accepts TCP connections at host:port."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        return False
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except OSError:
        return False


def ray_address() -> str:
    """RAY_ADDRESS if set (ray job submit sets it), else a live recorded head, else 'local'."""
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"]
    path = recorded_address_file()
    recorded = path.read_text().strip() if path.is_file() else ""
    if not recorded:
        return "local"
    if answers(recorded):
        return recorded
    print(
        f"Ray: nothing answers at {recorded} (recorded in {path} by an earlier "
        "`ray start`); starting a local cluster. Set RAY_ADDRESS to join another one.",
        file=sys.stderr,
    )
    return "local"


# Ray Train starts a detached placement-group cleaner with every training run. It asks
# the state API, which needs the dashboard these jobs do not start, whether the training
# controller lives, and warns on every failed check, about once a second: 4,840 of the
# 11,651 lines of one CV experiment's log. Every worker process drops that logger's
# warnings when it starts (its errors still show).
TRAIN_NOISE_LOGGER = "ray.train.v2._internal.execution.controller.placement_group_cleaner"


def quiet_train_noise() -> None:
    import logging

    logging.getLogger(TRAIN_NOISE_LOGGER).setLevel(logging.ERROR)
    if not ray_logs_wanted():
        import warnings

        warnings.filterwarnings("ignore", category=DeprecationWarning)  # Ray's own APIs


# The console carries the job's own lines. Ray's INFO and WARNING lines (its instance
# starting, each dataset's plan, "Progress bars disabled", deprecation notes, workers
# started) still go to Ray's log folder (/tmp/ray/session_latest/logs); HRSYNTH_RAY_LOGS=1
# shows them on the console too. Errors always show.
RAY_LOGS = "HRSYNTH_RAY_LOGS"
RAY_LOGGERS = ("ray", "ray.data", "ray.train", "ray.tune", "ray.serve")


def ray_logs_wanted() -> bool:
    return os.environ.get(RAY_LOGS, "") not in ("", "0")


@contextmanager
def verbose_console(verbose: bool):
    """A job's `--verbose`: for its run, what HRSYNTH_RAY_LOGS=1 shows (Ray's own lines,
    its C++ lines, the engines' loading bars relayed from the actors)."""
    from jobs.on_ray import QUIET_DATA_LOGGING

    saved = {name: os.environ.get(name) for name in (RAY_LOGS, "RAY_DATA_LOGGING_CONFIG")}
    if verbose:
        os.environ[RAY_LOGS] = "1"
        if os.environ.get("RAY_DATA_LOGGING_CONFIG") == QUIET_DATA_LOGGING:
            del os.environ["RAY_DATA_LOGGING_CONFIG"]
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# What the actors print while their engines load (tqdm bars: transformers' GGUF
# conversion, "Loading weights", "Writing model shards") would be relayed to the console
# line by line; without --verbose the workers run with them off. A variable the job's
# own environment sets is left to it (Ray refuses a runtime env that sets it twice).
QUIET_WORKER_ENV = {"TQDM_DISABLE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1"}


def worker_env(quiet: bool) -> dict:
    """The runtime env the job's workers start with."""
    env = {"worker_process_setup_hook": quiet_train_noise}
    own = {k: v for k, v in QUIET_WORKER_ENV.items() if k not in os.environ}
    if quiet and own:
        env["env_vars"] = own
    return env


def quiet_ray_console() -> None:
    """Ray's console handlers on this process show errors only (their files keep all)."""
    import logging
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"ray(\.|$)")
    warnings.filterwarnings("ignore", message=r".*ray_remote_args.*")
    for name in RAY_LOGGERS:
        for handler in logging.getLogger(name).handlers:
            if (
                not isinstance(handler, logging.FileHandler)
                and "File" not in type(handler).__name__
            ):
                # the console; Ray's log files keep all. Ray Data logs a failed dataset's
                # trace at ERROR and then raises it: the job says it once (jobs/entry.py).
                handler.setLevel(logging.CRITICAL if name == "ray.data" else logging.ERROR)


# A local Ray that fails to start (its processes time out on a loaded machine) is tried
# once more after this many seconds before the job stops with one line.
START_RETRY_S = 10


def connect(log_to_driver: bool = True) -> None:
    """ray.init() at ray_address(), once per process. A start that fails (on a loaded
    machine: "The current node timed out during startup", a 30-line trace) is retried
    once, then ends the job with one line saying what to do."""
    import time

    import ray

    quiet = not ray_logs_wanted()
    if quiet:
        quiet_ray_console()  # before ray.init: it says it started a local instance
    address = ray_address()
    for attempt in (1, 2):
        if ray.is_initialized():
            break
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=log_to_driver,
                runtime_env=worker_env(quiet),
            )
        except Exception as e:  # noqa: BLE001 (ray raises bare Exception, TimeoutError, ...)
            ray.shutdown()
            if attempt == 2:
                raise RunFailed(start_failure(address, e)) from None
            time.sleep(START_RETRY_S)
    if quiet:
        from jobs.on_ray.native_lines import drop_native_lines

        quiet_ray_console()
        drop_native_lines()  # after Ray started: its processes never write into the pipe


def start_failure(address: str, error: Exception) -> str:
    """The one line a Ray that would not start or answer ends a job with."""
    reason = (str(error).strip().splitlines() or [type(error).__name__])[0][:160]
    if address in ("local", "auto", None, ""):
        return (
            f"Ray could not start on this machine, twice ({reason}); on a loaded machine "
            "rerun when the load is lower, or start Ray first (`ray start --head`) and set "
            "RAY_ADDRESS to it"
        )
    return (
        f"the Ray cluster at {address} did not answer, twice ({reason}); check that it "
        "runs and RAY_ADDRESS"
    )


def data_context(progress_bars: bool):
    """Ray Data's context for a job whose every task writes a whole shard.

    Ray Data stops a dataset that moved no block for 30 minutes. One task here is one
    shard: 64 CVs of 1,000 words take longer than that on two CPU cores (a run on a
    scraped CV corpus was stopped so, its shard lost), so the watchdog is off; a task
    that fails still fails, and a stopped job's written shards resume."""
    import ray

    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = progress_bars
    context.execution_no_progress_timeout_s = -1
    return context


class UserErrorAtStart:
    """Base of a Ray Data actor whose constructor may refuse the user's setup (a
    ConfigError: a plugin's detector or engine that says what is missing). Ray reports a
    failed constructor as a dead actor, with Ray Data's internal-error trace on the
    console; kept here and raised by the first call instead, it reaches the command line
    as the user's one line. Any other error in a constructor stays a failed start."""

    start_error = None

    def started(self, build) -> None:
        """Run `build()` (the constructor's work), keeping its ConfigError."""
        from synth import ConfigError

        try:
            build()
        except ConfigError as e:
            self.start_error = e

    def check_started(self) -> None:
        if self.start_error is not None:
            raise self.start_error
