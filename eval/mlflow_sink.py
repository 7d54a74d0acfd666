"""An optional MLflow sink for evaluate's headline metrics, for teams that track runs in
MLflow: one MLflow run per evaluation, in an experiment (default `hrsynth-evaluate`),
with the headline metrics (eval.history.headline), the settings that define "the same
configuration", the test set's sha256 and the training run's id. The Parquet history
stays the record hrsynth compares against; this only copies it out.

MLflow's metric names allow letters, digits, `_ - . / ` and spaces: other characters
(the `+` of `presidio+ner`) become `_`.
"""

import re
import time

from synth import ConfigError

EXPERIMENT = "hrsynth-evaluate"


def metric_key(task: str, metric: str) -> str:
    return re.sub(r"[^\w\-. /]", "_", f"{task}.{metric}")


def log_run(uri: str, result: dict, experiment: str = EXPERIMENT) -> str:
    """The evaluation as one finished MLflow run at tracking URI `uri`; its run id."""
    try:
        from mlflow.entities import Metric, Param, RunTag
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise ConfigError(
            "--mlflow-uri needs MLflow: pip install mlflow-skinny (or mlflow)"
        ) from None
    from eval.history import CONFIG_KEYS, config_key, headline

    client = MlflowClient(uri)
    found = client.get_experiment_by_name(experiment)
    experiment_id = found.experiment_id if found else client.create_experiment(experiment)
    key = config_key(result["config"], result["test"]["sha256"])
    run = client.create_run(experiment_id, run_name=f"evaluate {result['train'].get('run_id')}")
    now = int(time.time() * 1000)
    params = {k: result["config"].get(k) for k in CONFIG_KEYS}
    params |= {"config_key": key, "test_sha256": result["test"]["sha256"]}
    client.log_batch(
        run.info.run_id,
        metrics=[Metric(metric_key(t, m), v, now, 0) for t, m, v, _ in headline(result)],
        params=[Param(k, str(v)) for k, v in params.items()],
        tags=[
            RunTag("hrsynth.train_run_id", str(result["train"].get("run_id"))),
            RunTag("hrsynth.test_path", str(result["test"]["path"])),
        ],
    )
    client.set_terminated(run.info.run_id)
    return run.info.run_id
