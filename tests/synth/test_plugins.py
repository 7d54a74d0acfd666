"""Installed registrations join hrsynth's own, and may not replace one."""

import os
import pickle
import sys
from pathlib import Path

import pytest

from synth import ConfigError, plugins


def test_installed_names_join_and_may_not_take_a_builtin(monkeypatch):
    monkeypatch.setattr(plugins, "installed", lambda group: {"echo": "echo_backend"})
    assert plugins.registry("backends", {"hf": "x"}) == {"hf": "x", "echo": "echo_backend"}
    own = {"echo": "synth.generation.hf_engine"}
    assert plugins.registry("backends", own) == own  # a built-in is never replaced
    with pytest.raises(ConfigError, match=r"registers backends \['echo'\], which hrsynth has"):
        plugins.refuse_clash("backends", own, "echo")  # and a run naming it is refused


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
        eval_tasks.check_chosen(["gone"])
    assert "gone" not in eval_tasks.registered()  # not named: left out, not refused


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
    assert generate.main([*argv, "--backend", "quitter"]) == 2
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


class Engine:
    """A plugin's engine whose calls fail in the ways plugin code does."""

    name = "tiny"

    def continue_prompts(self, prompts, params, seed):
        return {}["missing"]

    def made(self):
        return Engine()

    def stalls(self, seconds):
        import time

        time.sleep(seconds)
        return "late"

    @property
    def broken(self):
        raise RuntimeError("no property today")


def guarded_engine(monkeypatch, tmp_path):
    monkeypatch.setenv("HRSYNTH_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setattr(plugins, "installed", lambda group: {"tiny": f"{__name__}:Engine"})
    return plugins.guard(Engine(), "backends", "tiny")


def test_what_a_plugin_raises_is_one_line_naming_it_with_the_traceback_in_a_log(
    monkeypatch, tmp_path
):
    engine = guarded_engine(monkeypatch, tmp_path)
    with pytest.raises(ConfigError) as raised:
        engine.continue_prompts(["a"], None, 0)
    line = str(raised.value)
    assert line.startswith(
        "backend 'tiny' (tests.synth.test_plugins:Engine) raised KeyError in "
        "Engine.continue_prompts: 'missing'; fix the package that registers it (traceback in "
    )
    log = Path(line.split("traceback in ")[1].rstrip(")"))
    assert log.parent == tmp_path / "logs" and 'return {}["missing"]' in log.read_text()
    with pytest.raises(ConfigError, match=r"raised RuntimeError in reading broken: no property"):
        _ = engine.broken
    assert getattr(engine, "absent", None) is None  # absent stays absent, not an error
    assert isinstance(engine, Engine) and engine.name == "tiny"
    assert isinstance(engine.made(), plugins.Guarded)  # its own objects are guarded too
    assert pickle.loads(pickle.dumps(engine)).name == "tiny"  # it travels to Ray actors


class LeakyMethod:
    """A method whose error quotes the span it was given."""

    def replace(self, kind, original):
        raise ValueError(f"fails for {original}")


def test_a_method_error_names_the_span_type_never_its_text_and_its_log_is_owner_only(
    monkeypatch, tmp_path
):
    """Issue 84: `… fails for Marguerite Oyelaran` was printed on the console and kept in
    a 0644 log in a 0755 folder. The line names the exception's type, the plugin and the
    span's type; the message stays in a 0600 log in a 0700 folder (made so if it was not)."""
    from synth.deid.anonymizer.methods import replacer

    logs = tmp_path / "logs"
    logs.mkdir(mode=0o755)
    monkeypatch.setenv("HRSYNTH_LOG_DIR", str(logs))
    monkeypatch.setattr(plugins, "installed", lambda group: {"leaky": f"{__name__}:LeakyMethod"})
    monkeypatch.setattr(
        "synth.deid.anonymizer.methods.installed_method",
        lambda name: plugins.guard(LeakyMethod, "methods", name),
    )
    with pytest.raises(ConfigError) as raised:
        replacer("leaky")("PERSON", "Marguerite Oyelaran")
    line = str(raised.value)
    assert "Marguerite" not in line and "Oyelaran" not in line, line
    assert line.startswith(
        "method 'leaky' (tests.synth.test_plugins:LeakyMethod) raised ValueError in "
        "LeakyMethod.replace for a PERSON span (its message may quote a document"
    ), line
    log = Path(line.split("traceback in ")[1].rstrip(")"))
    assert "fails for Marguerite Oyelaran" in log.read_text()  # for whoever fixes the plugin
    assert log.stat().st_mode & 0o777 == 0o600 and logs.stat().st_mode & 0o777 == 0o700


def test_a_plugin_call_past_its_deadline_is_one_line_naming_it(monkeypatch, tmp_path):
    """Issue 84: a method that sleeps, or a backend that hangs after the driver's trial,
    held a run with no bound and no line."""
    import time

    from synth.cancel import cancel_when, current

    engine = guarded_engine(monkeypatch, tmp_path)
    monkeypatch.setenv("HRSYNTH_PLUGIN_DEADLINE_S", "0.5")
    start = time.monotonic()
    with pytest.raises(ConfigError) as raised:
        engine.stalls(30)
    assert time.monotonic() - start < 5
    assert str(raised.value).startswith(
        "backend 'tiny' (tests.synth.test_plugins:Engine) did not return from Engine.stalls "
        "within 0.5 s (the plugin deadline, HRSYNTH_PLUGIN_DEADLINE_S)"
    )
    assert engine.stalls(0) == "late"  # within it: the answer, as before
    seen = []
    monkeypatch.setattr(Engine, "stalls", lambda self, s: seen.append(current()()), raising=True)
    with cancel_when(lambda: True):  # a served batch's check goes with the call
        engine.stalls(0)
    assert seen == [True]
    monkeypatch.setenv("HRSYNTH_PLUGIN_DEADLINE_S", "soon")
    with pytest.raises(ConfigError, match="HRSYNTH_PLUGIN_DEADLINE_S must be a number"):
        engine.stalls(0)


def run_python(args: list[str], env: dict, timeout: int):
    """`python ARGS` from the project root, its output captured."""
    import subprocess

    return subprocess.run(
        [sys.executable, *args],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "1e20", "-0.5", "soon"])
def test_a_deadline_out_of_range_is_refused_before_any_work(value, tmp_path):
    """Issue 94: -1 and nan meant no deadline in silence (DL1); 1e20 and inf overflowed
    hrsynth's own wait and the message blamed the plugin (DL2)."""
    env = {**os.environ, "HRSYNTH_PLUGIN_DEADLINE_S": value}
    out = ["--output", str(tmp_path / "out")]
    done = run_python(
        ["-m", "jobs.cli", "deidentify", "--input", str(tmp_path / "none.jsonl"), *out], env, 120
    )
    assert done.returncode == 2 and done.stderr.strip() == (
        "error: HRSYNTH_PLUGIN_DEADLINE_S must be a number of seconds above 0 and at most "
        f"604800 (a week), or 0 for none; got {value!r}"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value, limit", [("0", None), ("", plugins.DEADLINE_S), ("2.5", 2.5)])
def test_a_deadline_in_range_is_read(value, limit, monkeypatch):
    monkeypatch.setenv("HRSYNTH_PLUGIN_DEADLINE_S", value)
    assert plugins.deadline_s() == limit


def test_a_process_whose_plugin_call_overran_exits_at_once():
    """The call left behind does not hold the process at exit (a pool's threads would:
    the command would print its line and then hang)."""
    import time

    script = (
        "from synth import plugins\n"
        "from tests.synth.test_plugins import Engine\n"
        "engine = plugins.Guarded(Engine(), \"backend 'tiny' (x)\", 'x')\n"
        "try:\n    engine.stalls(60)\nexcept Exception as e:\n    print(e)\n"
    )
    env = {**os.environ, "HRSYNTH_PLUGIN_DEADLINE_S": "0.5"}
    start = time.monotonic()
    done = run_python(["-c", script], env, 50)
    assert "did not return from Engine.stalls within 0.5 s" in done.stdout, done.stderr
    assert time.monotonic() - start < 30  # not the 60 s the call sleeps


def test_hrsynths_own_code_is_not_wrapped(monkeypatch):
    monkeypatch.setattr(plugins, "installed", lambda group: {})
    engine = Engine()
    assert plugins.guard(engine, "backends", "tiny") is engine
    with pytest.raises(KeyError), plugins.calling(plugins.seam("backends", "tiny"), "x"):
        {}["missing"]


def test_only_the_plugin_a_run_names_refuses_it_and_the_others_warn_once(monkeypatch, capsys):
    monkeypatch.setattr(plugins, "installed", lambda group: {"bad": "bad", "good": "good"})
    monkeypatch.setattr(plugins, "_warned", set())

    def check(name):
        if name == "bad":
            raise ConfigError("backend 'bad' (bad) cannot be loaded (ImportError: gone); fix")

    plugins.check_chosen("backends", {}, check, ["good"])
    plugins.check_chosen("backends", {}, check, ["good"])
    err = capsys.readouterr().err
    assert err == (
        "warning: installed backends not used by this run are broken and skipped: bad "
        "(backend 'bad' (bad) cannot be loaded (ImportError: gone)); fix or uninstall the "
        "packages that register them\n"
    )
    with pytest.raises(ConfigError, match="backend 'bad'"):
        plugins.check_chosen("backends", {}, check, ["bad"])
