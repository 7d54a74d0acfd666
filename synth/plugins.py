"""Extensions that live in another package: backends, document kinds, evaluation tasks,
personal-data detectors, de-identification methods and a job's steps registered as entry
points, found beside hrsynth's own (docs/extending.md).

A package registers a name in its pyproject.toml, under
`[project.entry-points."hrsynth.backends"]` (or `hrsynth.kinds`, `hrsynth.tasks`,
`hrsynth.detectors`, `hrsynth.methods`, `hrsynth.steps`), pointing at its module (a task:
`module:TASK`; a detector, a method or a step: `module:Class`). Installed, it is seen by every process that
imports hrsynth, the Ray workers included: the one thing a monkeypatched registry cannot
reach.

Plugin code is the one code hrsynth cannot test, so every call into it goes through one
seam (`guard`, `calling`): whatever it raises becomes one line naming the plugin, its
entry point and the exception, the traceback kept in a log file the line names. Only
what a run uses can stop it: a broken plugin it does not select is one warning line
(`warn_unused`), and `--help` lists it as broken.
"""

import contextlib
import datetime as dt
import importlib
import math
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterable
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path

from synth import ConfigError, RunFailed

GROUPS = ("backends", "kinds", "tasks", "detectors", "methods", "steps")


@cache
def installed(group: str) -> dict[str, str]:
    """{name: "module" or "module:attribute"} that installed packages register in group
    `hrsynth.<group>`; read once per process."""
    return {ep.name: ep.value for ep in entry_points(group=f"hrsynth.{group}")}


def registry(group: str, own: dict) -> dict:
    """hrsynth's own entries, then the installed ones that take no built-in name: an
    installed package cannot quietly replace a built-in (a run that names a clashing
    name is refused, `refuse_clash`; any other run is warned)."""
    found = installed(group)
    return {**own, **{name: target for name, target in found.items() if name not in own}}


def refuse_clash(group: str, own, name: str) -> None:
    """A run that names `name`, which both hrsynth and an installed package register, is
    refused: which one it meant cannot be known."""
    if name in own and name in installed(group):
        raise ConfigError(clash_message(group, [name]))


def clash_message(group: str, names: list[str]) -> str:
    return (
        f"an installed package registers {group} {names}, which hrsynth has already; "
        f'rename them in its [project.entry-points."hrsynth.{group}"]'
    )


def who(group: str, name: str) -> str:
    """How a plugin is named in every line about it: `backend 'echo' (echo_backend)`."""
    return f"{group.removesuffix('s')} {name!r} ({installed(group).get(name, '?')})"


def load(group: str, name: str, target: str, surface: tuple[str, ...] = ()):
    """What `target` ("module" or "module:attribute") names, checked to have `surface`: an
    extension that cannot be imported, or lacks part of what its group gives, is one line
    naming it and the fix, not a traceback from inside a job or an actor."""
    what = f"{group.removesuffix('s')} {name!r} ({target})"
    module_name, _, attribute = target.partition(":")
    try:
        found = importlib.import_module(module_name)
        found = getattr(found, attribute) if attribute else found
    # An import may raise anything: SyntaxError, its own error, and also SystemExit or
    # KeyboardInterrupt, which would otherwise end the command silently (exit 0 from
    # `sys.exit(0)`) or with a traceback (issue 72).
    except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001
        raise ConfigError(
            f"{what} cannot be loaded ({type(e).__name__}: {_first_line(e)}); fix or "
            "reinstall the package that registers it"
        ) from None
    missing = [part for part in surface if not hasattr(found, part)]
    if missing:
        raise ConfigError(
            f"{what} lacks {', '.join(missing)}; docs/extending.md lists what a "
            f"{group.removesuffix('s')} gives"
        )
    return found


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else "no message"


# --- the seam: every call into plugin code ------------------------------------------


def log_folder() -> Path:
    """Where a plugin's traceback is kept: HRSYNTH_LOG_DIR, else the temporary folder
    (never the run's output, which holds only what the run wrote)."""
    return Path(os.environ.get("HRSYNTH_LOG_DIR") or Path(tempfile.gettempdir(), "hrsynth-logs"))


# Groups whose calls read the user's documents (a detector's texts, a method's spans, a
# task's real test set): an exception's message may quote them (`fails for Marguerite
# Oyelaran`, issue 84), so the console line names its type, the plugin and the call
# only, and the message stays in the owner-only log.
READS_DOCUMENTS = ("detectors", "methods", "tasks", "steps")


def _keep_traceback(label: str, call: str, error: BaseException) -> str:
    """The traceback written to a log file of its own, owner-only (0600 in a 0700
    folder: it may quote a document); its path (or why there is none)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = log_folder() / f"plugin-{stamp}-{os.getpid()}-{id(error):x}.log"
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if path.parent.stat().st_uid == os.getuid():  # a folder of ours made 0755 before
            path.parent.chmod(0o700)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as f:
            f.write(f"{label}, {call}\n\n{text}")
    except OSError as e:
        return f"no log file ({e.strerror} writing {path})"
    return f"traceback in {path}"


# How long one call into plugin code may take (seconds; HRSYNTH_PLUGIN_DEADLINE_S, 0 for
# none): a method that sleeps, or a backend that hangs after passing the driver's trial,
# held a run with no bound and no line (issue 84). Generous: a plugin backend's batch on
# a CPU takes minutes.
DEADLINE_S = 900.0


# The longest deadline hrsynth can wait on (a week): past it `threading`'s wait overflows,
# and the overflow blamed the plugin (issue 94, DL2).
LONGEST_DEADLINE_S = 7 * 24 * 3600.0


def deadline_s() -> float | None:
    """HRSYNTH_PLUGIN_DEADLINE_S read and range-checked: 0 for none, else a finite number
    of seconds above 0 and at most a week. -1 and nan meant no deadline in silence (DL1)."""
    raw = os.environ.get("HRSYNTH_PLUGIN_DEADLINE_S", "")
    try:
        limit = float(raw) if raw.strip() else DEADLINE_S
    except ValueError:
        limit = math.nan
    if limit == 0:
        return None
    if not 0 < limit <= LONGEST_DEADLINE_S:  # nan fails this too
        raise ConfigError(
            f"HRSYNTH_PLUGIN_DEADLINE_S must be a number of seconds above 0 and at most "
            f"{LONGEST_DEADLINE_S:.0f} (a week), or 0 for none; got {raw!r}"
        )
    return limit


def bounded(label: str, call: str, function: Callable, *args, **kwargs):
    """`function(*args, **kwargs)`, given deadline_s() to return: past it, one line naming
    the plugin and the call. The call runs on a daemon thread of its own, so one past
    its deadline is left behind without holding the process at exit; the calling
    thread's cancel check (a served batch's) goes with it."""
    limit = deadline_s()
    if limit is None:
        return function(*args, **kwargs)
    import threading

    from synth import cancel

    check = cancel.current() if cancel.watched() else None
    outcome: dict = {}

    def run():
        try:
            if check is None:
                outcome["value"] = function(*args, **kwargs)
            else:
                with cancel.cancel_when(check):
                    outcome["value"] = function(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 (raised again on the calling thread)
            outcome["error"] = e

    worker = threading.Thread(target=run, name="hrsynth-plugin", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        raise ConfigError(
            f"{label} did not return from {call} within {limit:g} s (the plugin deadline, "
            "HRSYNTH_PLUGIN_DEADLINE_S); fix the package that registers it, or raise the "
            "deadline for a call that is slow by nature"
        )
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@contextlib.contextmanager
def calling(label: str | None, call: str, private: bool = False):
    """Run plugin code: anything it raises but a ConfigError or RunFailed (its own one
    line for the user) becomes one ConfigError naming the plugin (`label`, from `who`),
    the call and the exception; `private`: a call that reads documents, whose
    exception's message stays in the log (READS_DOCUMENTS). `label` None: hrsynth's own
    code, whose errors stay tracebacks (a bug to report)."""
    if label is None:
        yield
        return
    try:
        yield
    except (ConfigError, RunFailed):
        raise
    # SystemExit too: a plugin's sys.exit() must not end the job as if it had finished.
    except (Exception, SystemExit) as e:  # noqa: BLE001 (plugin code may raise anything)
        kept = _keep_traceback(label, call, e)
        said = (
            " (its message may quote a document: it is in the log only)"
            if private
            else (f": {_first_line(e)}")
        )
        raise ConfigError(
            f"{label} raised {type(e).__name__} in {call}{said}; fix the package that "
            f"registers it ({kept})"
        ) from None


def failure_line(error: BaseException, label: str) -> str:
    """The one line for an error that stops one part of a run and not the rest (a task
    of `evaluate`): a ConfigError's or RunFailed's own text, else the exception named
    with its traceback kept in a log file."""
    if isinstance(error, (ConfigError, RunFailed)):
        return str(error)
    kept = _keep_traceback(label, "its run", error)
    return f"{type(error).__name__}: {_first_line(error)} ({kept})"


class Guarded:
    """A plugin's object seen through the seam: each of its methods called through
    `calling`, and what a call returns of the plugin's own classes guarded in turn (an
    engine its build() makes, a planner its kind makes). isinstance and pickling see the
    object inside, so Ray actors and protocol checks take it as the plugin's own."""

    __slots__ = ("_home", "_label", "_private", "_target")

    def __init__(self, target, label: str, home: str, private: bool = False):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_label", label)
        object.__setattr__(self, "_home", home)
        object.__setattr__(self, "_private", private)  # its calls read documents

    @property
    def __class__(self):  # isinstance(guarded, EngineBase) is the plugin object's answer
        return self._target.__class__

    def __getattr__(self, name: str):
        try:
            value = getattr(self._target, name)
        except AttributeError:  # absent: getattr(…, default) and hasattr answer as usual
            raise
        except (Exception, SystemExit) as e:
            with calling(self._label, f"reading {name}", self._private):
                raise e from None
        if callable(value) and not isinstance(value, type):
            return self._method(value, name)
        return value

    def _method(self, function, name: str, about: str = ""):
        label, home, private = self._label, self._home, self._private
        owner = getattr(self._target, "__name__", None) or type(self._target).__name__

        def through_the_seam(*args, **kwargs):
            call = f"{owner}.{name}{about}"
            with calling(label, call, private):
                made = bounded(label, call, function, *args, **kwargs)
                return _guard_result(made, label, home, private)

        return through_the_seam

    def __call__(self, *args, **kwargs):  # making the plugin's object: no document yet
        owner = getattr(self._target, "__name__", type(self._target).__name__)
        with calling(self._label, f"{owner}()"):
            made = bounded(self._label, f"{owner}()", self._target, *args, **kwargs)
            return _guard_result(made, self._label, self._home, self._private)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._target, name, value)

    def __reduce__(self):
        return (Guarded, (self._target, self._label, self._home, self._private))

    def __repr__(self) -> str:
        return f"<{self._label}: {self._target!r}>"


def _guard_result(value, label: str, home: str, private: bool = False):
    """A call's result, guarded when it is an object of the plugin's own package."""
    module = getattr(type(value), "__module__", "") or ""
    if module.split(".")[0] == home and not isinstance(value, Guarded):
        return Guarded(value, label, home, private)
    return value


def call_for(value, name: str, about: str, *args):
    """`value.name(*args)`, through the seam when `value` is guarded, its line naming
    what the call was for (`about`: a span's type, never its text)."""
    if not isinstance(value, Guarded):
        return getattr(value, name)(*args)
    return value._method(getattr(value._target, name), name, f" for {about}")(*args)


def guard(value, group: str, name: str):
    """`value` (a plugin's module, class or object) seen through the seam when `name` is
    an installed plugin of `group`; hrsynth's own as it is."""
    target = installed(group).get(name)
    if target is None or isinstance(value, Guarded):
        return value
    home = target.split(":")[0].split(".")[0]
    return Guarded(value, who(group, name), home, group in READS_DOCUMENTS)


def seam(group: str, name: str) -> str | None:
    """The label `calling` takes for `name` of `group`: None for hrsynth's own."""
    return who(group, name) if name in installed(group) else None


# --- only what a run uses can stop it -------------------------------------------------


def help_names(group: str, own, check: Callable[[str], object]) -> list[str]:
    """Every name of `group` for --help, which must never fail because of a plugin: an
    installed one that clashes with a built-in, or that `check(name)` refuses, is listed
    as `NAME (broken)`; running it says why in one line."""
    listed = list(own)
    broken = problems(group, own, check)
    for name in installed(group):
        listed.append(f"{name} (broken)" if name in broken else name)
    return listed


def problems(group: str, own, check: Callable[[str], object]) -> dict[str, str]:
    """{installed name: why it is broken} for each one that clashes with a built-in or
    that `check(name)` refuses (its one line)."""
    found = {}
    for name in installed(group):
        if name in own:
            found[name] = f"{who(group, name)} takes the built-in name {name!r}"
            continue
        try:
            check(name)
        except ConfigError as e:
            found[name] = str(e)
        except Exception as e:  # noqa: BLE001 (a check may trip on anything a plugin does)
            found[name] = f"{who(group, name)}: {type(e).__name__}: {_first_line(e)}"
    return found


_warned: set[str] = set()


def check_chosen(group: str, own, check: Callable[[str], object], chosen: Iterable[str]):
    """The installed plugins of `group` a run names (`chosen`) loaded and checked on the
    driver, before any work: a broken one refuses the run in one line. Every other broken
    one is one warning line, and the run goes on without it."""
    chosen = [name for name in chosen if name]
    for name in chosen:
        refuse_clash(group, own, name)
        if name in installed(group):
            check(name)
    warn_unused(group, own, check, chosen)


def warn_unused(group: str, own, check: Callable[[str], object], chosen: Iterable[str]):
    """One warning line (once per process and group) naming the installed plugins of
    `group` that are broken and not among `chosen`."""
    if group in _warned:  # said once: the checks are not run again
        return
    unused = {n: why for n, why in problems(group, own, check).items() if n not in chosen}
    if not unused:
        return
    _warned.add(group)
    names = ", ".join(f"{n} ({_reason(why)})" for n, why in unused.items())
    print(
        f"warning: installed {group} not used by this run are broken and skipped: {names}; "
        "fix or uninstall the packages that register them",
        file=sys.stderr,
        flush=True,
    )


def _reason(line: str) -> str:
    """A refusal's cause, short enough to list several in one warning line."""
    return line.split("; ")[0][:160]
