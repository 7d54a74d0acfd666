"""The MLflow sink on a local file store: each evaluation is one finished run holding the
headline metrics (names made MLflow-safe), the configuration key and the test set's hash."""

from mlflow.tracking import MlflowClient

from eval.history import config_key, headline
from eval.mlflow_sink import EXPERIMENT, log_run, metric_key
from tests.eval.test_history_and_report import _result


def test_two_evaluations_are_two_runs_with_their_metrics(tmp_path, monkeypatch):
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # MLflow 3 prefers a database
    uri = (tmp_path / "mlruns").as_uri()
    first, second = _result(0.8, 0.01), _result(0.7, 0.1)
    ids = [log_run(uri, first), log_run(uri, second)]
    client = MlflowClient(uri)
    runs = {
        r.info.run_id: r
        for r in client.search_runs([client.get_experiment_by_name(EXPERIMENT).experiment_id])
    }
    assert set(runs) == set(ids)
    for run_id, result in zip(ids, (first, second)):
        run = runs[run_id]
        assert run.info.status == "FINISHED"
        assert run.data.metrics == {metric_key(t, m): v for t, m, v, _ in headline(result)}
        assert run.data.params["config_key"] == config_key(
            result["config"], result["test"]["sha256"]
        )
        assert run.data.tags["hrsynth.train_run_id"] == "r1"
    assert (
        metric_key("deid", "presidio+ner tag privacy_mean") == "deid.presidio_ner tag privacy_mean"
    )
