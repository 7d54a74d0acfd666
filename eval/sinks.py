"""Where evaluate copies its results besides its own folder (the Parquet history, an
MLflow server), checked before any training and written after the results are safe.

An evaluation takes minutes to hours; a history folder of the old format or an MLflow
server that is down must stop it at the start, not after the work. And a sink that
fails at the end (the server went down meanwhile) must not take metrics.json with it:
the results are written first, a failed sink is one warning line and its reason in
metrics.json (`sink_errors`), and the exit code stays 0.
"""

import sys
import time

from synth import ConfigError
from synth.io.storage import filesystem, join

MLFLOW_TIMEOUT_S = 5


def check_sinks(history: str | None, mlflow_uri: str | None) -> None:
    if history:
        _check_history(history)
    if mlflow_uri:
        _check_mlflow(mlflow_uri)


def _check_history(path: str) -> None:
    from eval.history import read_history

    try:
        read_history(path)  # the old one-file format is refused here, naming the fix
        fs, where = filesystem(path)
        fs.create_dir(where, recursive=True)
        probe = join(where, f".write-test-{time.time_ns()}")
        with fs.open_output_stream(probe) as f:
            f.write(b"")
        fs.delete_file(probe)
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001 (any reason it cannot be read or written)
        raise ConfigError(
            f"--history {path}: cannot be read and written ({type(e).__name__}); give a "
            "folder you can write to, or drop --history"
        ) from None


def _check_mlflow(uri: str) -> None:
    try:
        import mlflow  # noqa: F401
    except ImportError:
        raise ConfigError(
            "--mlflow-uri needs MLflow: pip install mlflow-skinny (or mlflow)"
        ) from None
    if not uri.startswith(("http://", "https://")):
        _check_local_mlflow(uri)
        return
    import requests

    try:
        requests.get(uri.rstrip("/") + "/health", timeout=MLFLOW_TIMEOUT_S).raise_for_status()
    except requests.RequestException as e:
        raise ConfigError(
            f"--mlflow-uri {uri}: no MLflow server answers within {MLFLOW_TIMEOUT_S} s "
            f"({type(e).__name__}); start it, or drop --mlflow-uri"
        ) from None


def _check_local_mlflow(uri: str) -> None:
    """A local store (a folder, file:, sqlite:) opened and read now: one that cannot be
    written (a missing driver, a read-only folder) was found only after training."""
    from mlflow.tracking import MlflowClient

    try:
        MlflowClient(tracking_uri=uri).search_experiments(max_results=1)
    except Exception as e:  # noqa: BLE001 (each store raises its own kinds)
        reason = (str(e).strip().splitlines() or [""])[0][:120]
        raise ConfigError(
            f"--mlflow-uri {uri}: cannot open this MLflow store ({type(e).__name__}: "
            f"{reason}); give a store you can write (an http:// server, a folder you own), "
            "or drop --mlflow-uri"
        ) from None


def write_sinks(result: dict, history: str | None, mlflow_uri: str | None, tolerance: float):
    """Each sink in turn; one that fails is a warning and an entry of `sink_errors`."""
    errors = {}
    if history:
        from eval.history import append_and_compare

        try:
            result["history"] = append_and_compare(history, result, tolerance)
        except Exception as e:  # noqa: BLE001 (the results are already written)
            errors["history"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
    if mlflow_uri:
        from eval.mlflow_sink import log_run

        try:
            result["mlflow_run_id"] = log_run(mlflow_uri, result)
        except Exception as e:  # noqa: BLE001
            errors["mlflow"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
    for sink, reason in errors.items():
        print(
            f"warning: the {sink} sink failed ({reason}); the results are written", file=sys.stderr
        )
    if errors:
        result["sink_errors"] = errors
