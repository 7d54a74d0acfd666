"""Issue 64: a local Ray that does not start (on a loaded machine: "The current node
timed out during startup", a 30-line trace) is retried once, then is one line."""

import pytest

from jobs.on_ray import session
from synth import RunFailed


def test_a_ray_that_does_not_start_is_retried_then_one_line(monkeypatch):
    import ray

    calls = []

    def init(**kwargs):
        calls.append(kwargs["address"])
        raise Exception(  # noqa: TRY002 (what ray.init raises)
            "The current node timed out during startup. This could happen because some of "
            "the Ray processes failed to startup.\n(28 more lines)"
        )

    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(session, "START_RETRY_S", 0)
    monkeypatch.setattr(session, "ray_address", lambda: "local")
    with pytest.raises(RunFailed) as stopped:
        session.connect()
    line = str(stopped.value)
    assert calls == ["local", "local"] and "\n" not in line
    assert line.startswith("Ray could not start on this machine, twice (The current node")
    assert "rerun when the load is lower" in line


def test_a_ray_that_starts_on_the_second_try_runs(monkeypatch):
    import ray

    state = {"up": False, "calls": 0}

    def init(**kwargs):
        state["calls"] += 1
        if state["calls"] == 1:
            raise TimeoutError("Timed out after 30 seconds while waiting for node to startup")
        state["up"] = True

    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "is_initialized", lambda: state["up"])
    monkeypatch.setattr(session, "START_RETRY_S", 0)
    monkeypatch.setattr(session, "ray_address", lambda: "local")
    session.connect()
    assert state == {"up": True, "calls": 2}
