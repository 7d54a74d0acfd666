"""Installed registrations join hrsynth's own, and may not replace one."""

import pytest

from synth import ConfigError, plugins


def test_installed_names_join_and_may_not_take_a_builtin(monkeypatch):
    monkeypatch.setattr(plugins, "installed", lambda group: {"echo": "echo_backend"})
    assert plugins.registry("backends", {"hf": "x"}) == {"hf": "x", "echo": "echo_backend"}
    with pytest.raises(ConfigError, match=r"registers backends \['echo'\], which hrsynth has"):
        plugins.registry("backends", {"echo": "synth.generation.hf_engine"})


@pytest.mark.parametrize(
    "entry,message",
    [
        ("no_such_module", r"kind 'broken' \(no_such_module\) cannot be loaded \(ModuleNotFound"),
        (
            "tests.extensions.echo.echo_backend",  # a backend registered as a kind
            r"kind 'broken' \(tests.extensions.echo.echo_backend\) lacks TITLE, CARD_TASKS",
        ),
    ],
)
def test_an_extension_that_cannot_load_or_lacks_its_surface_is_named(monkeypatch, entry, message):
    from synth import kinds

    monkeypatch.setattr(plugins, "installed", lambda group: {"broken": entry})
    with pytest.raises(ConfigError, match=message):
        kinds.kind("broken")
    assert kinds.kind("ticket").TITLE == "tickets"  # hrsynth's own still load


def test_a_task_entry_point_naming_a_missing_object_is_named(monkeypatch):
    from jobs import eval_tasks

    monkeypatch.setattr(plugins, "installed", lambda group: {"gone": "eval.metrics:NO_TASK"})
    with pytest.raises(ConfigError, match=r"task 'gone' \(eval.metrics:NO_TASK\) cannot be"):
        eval_tasks.registered()
