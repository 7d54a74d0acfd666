"""Installed registrations join hrsynth's own, and may not replace one."""

import sys

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


EXITS = {
    "sys.exit(0)": "import sys\nsys.exit(0)\n",
    "sys.exit(2)": "import sys\nsys.exit(2)\n",
    "KeyboardInterrupt": "raise KeyboardInterrupt\n",
}


@pytest.mark.parametrize("body", EXITS.values(), ids=EXITS.keys())
def test_a_plugin_that_exits_at_import_is_one_line_naming_it_exit_2(
    monkeypatch, tmp_path, capsys, body
):
    """Issue 72: `sys.exit(0)` at import made generate exit 0 with no output, exit(2) gave
    no message, and KeyboardInterrupt a traceback."""
    from jobs import generate

    (tmp_path / "quitter.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(plugins, "installed", lambda group: {"quitter": "quitter"})
    argv = ["--config", "configs/tickets.yaml", "--output", str(tmp_path / "out")]
    assert generate.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "'quitter' (quitter) cannot be loaded" in err
    assert "\n" not in err and not (tmp_path / "out").exists()
    monkeypatch.delitem(sys.modules, "quitter", raising=False)


def test_help_lists_a_plugin_that_exits_at_import_as_broken(monkeypatch, tmp_path, capsys):
    from jobs import generate

    (tmp_path / "quitter.py").write_text(EXITS["sys.exit(0)"])
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(plugins, "installed", lambda group: {"quitter": "quitter"})
    with pytest.raises(SystemExit) as done:
        generate.main(["--help"])
    assert done.value.code == 0 and "quitter (broken)" in capsys.readouterr().out
