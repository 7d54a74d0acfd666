"""Which tier a test runs in: `make test`, run before every commit and by CI, or only
`make test-all`. The `slow` marker follows measured cost, not a guess written beside
the test: tests/durations_avx2.json holds what each test and each shared fixture cost
on the AVX2-only 2-core machine, the slowest kind we run on, and this plugin marks
`slow` what the fast tier cannot afford.

- A test whose own time (setup, call and teardown, less the shared fixtures it happened
  to set up first) is SLOW_S or more is slow.
- A test that needs a shared fixture (module or session scope) costing SLOW_S or more
  is slow unless a `component` check needs the same fixture: the fast tier pays for an
  expensive fixture only where it pays for it anyway.
- A test marked `component("...")` is its component's one real end-to-end check and
  stays in the fast tier whatever it costs.
- A test with no recorded time (new, or renamed) is fast until measured.

`make durations` measures every test and rewrites the file (`--record-durations PATH`
writes what the run measured over the tests it ran, keeping the others' entries).
"""

import json
import time
from pathlib import Path

import pytest

DURATIONS = Path(__file__).parent / "durations_avx2.json"
# About 15 s on the AVX2 machine: the fast tier's 20 minutes hold the component checks
# and some 1,200 tests under this.
SLOW_S = 15.0


def pytest_addoption(parser):
    parser.addoption(
        "--record-durations",
        metavar="PATH",
        help="write each test's and each shared fixture's measured seconds to PATH "
        "(tests/durations_avx2.json when measured on the AVX2-only machine)",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "component(name): the named component's one real end-to-end check, in the fast "
        "tier whatever it costs",
    )
    config.addinivalue_line("markers", "slow: left out of `make test` (tests/tiers.py)")
    path = config.getoption("--record-durations")
    if path:
        config.pluginmanager.register(Recorder(Path(path)), "hrsynth-durations")


def fixture_key(fixturedef) -> str:
    """A fixture's name and where it is defined: two modules may both call theirs `engine`."""
    return f"{fixturedef.baseid}::{fixturedef.argname}"


def shared_fixtures(item) -> list[str]:
    """The module- and session-scoped fixtures an item needs (its whole closure)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    keys = []
    for name in info.names_closure:
        defs = info.name2fixturedefs.get(name)
        if defs and defs[-1].scope in ("module", "session", "package", "class"):
            keys.append(fixture_key(defs[-1]))
    return keys


def tier(items, record: dict) -> list:
    """The items to mark slow under the rules of this module's docstring."""
    tests, fixtures = record.get("tests", {}), record.get("fixtures", {})
    components = [item for item in items if item.get_closest_marker("component")]
    paid = {key for item in components for key in shared_fixtures(item)}
    slow = []
    for item in items:
        if item.get_closest_marker("component"):
            continue
        own = tests.get(item.nodeid, 0.0)
        dear = [k for k in shared_fixtures(item) if fixtures.get(k, 0.0) >= SLOW_S]
        if own >= SLOW_S or any(k not in paid for k in dear):
            slow.append(item)
    return slow


@pytest.hookimpl(tryfirst=True)  # before `-m "not slow"` deselects by the marks
def pytest_collection_modifyitems(config, items):
    record = json.loads(DURATIONS.read_text()) if DURATIONS.is_file() else {}
    for item in tier(items, record):
        item.add_marker(pytest.mark.slow)


def machine() -> str:
    """The CPU, the code path forced (if any) and the day: a time names its CPU."""
    import os
    import platform

    model = platform.processor() or "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = [x for x in cpuinfo.read_text().splitlines() if x.startswith("model name")]
        model = names[0].split(":", 1)[1].strip() if names else model
    forced = os.environ.get("ATEN_CPU_CAPABILITY")
    path = f", forced to {forced}" if forced else ""
    return f"{model}, {os.cpu_count()} cores{path}, {time.strftime('%Y-%m-%d')}"


class Recorder:
    """Times every test's phases and every shared fixture's setup. A shared fixture's
    setup is charged to the fixture, not to the test that happened to need it first."""

    def __init__(self, path: Path):
        self.path = path
        self.tests: dict[str, float] = {}
        self.fixtures: dict[str, float] = {}
        self.charged: dict[str, float] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        start = time.perf_counter()
        yield
        if fixturedef.scope != "function":
            spent = time.perf_counter() - start
            key = fixture_key(fixturedef)
            self.fixtures[key] = round(self.fixtures.get(key, 0.0) + spent, 2)
            item = getattr(request, "_pyfuncitem", None)  # the test being set up
            node = item.nodeid if item is not None else ""
            self.charged[node] = self.charged.get(node, 0.0) + spent

    def pytest_runtest_logreport(self, report):
        self.tests[report.nodeid] = self.tests.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self, session):
        old = json.loads(self.path.read_text()) if self.path.is_file() else {}
        tests = old.get("tests", {})
        for node, spent in self.tests.items():
            tests[node] = round(max(0.0, spent - self.charged.get(node, 0.0)), 2)
        fixtures = {**old.get("fixtures", {}), **self.fixtures}
        record = {
            "about": "seconds per test (its own) and per shared fixture (its setup); "
            "tests/tiers.py reads them",
            "measured_on": machine(),
            "tests": dict(sorted(tests.items())),
            "fixtures": dict(sorted(fixtures.items())),
        }
        self.path.write_text(json.dumps(record, indent=1) + "\n")
