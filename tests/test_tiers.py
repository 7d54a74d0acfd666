"""The tier rule of tests/tiers.py on made-up items: own time, shared fixtures, components."""

from types import SimpleNamespace

from tests.tiers import SLOW_S, tier


def item(nodeid: str, fixtures=(), component: bool = False):
    defs = {name: [SimpleNamespace(baseid="", argname=name, scope="session")] for name in fixtures}
    info = SimpleNamespace(names_closure=list(fixtures), name2fixturedefs=defs)
    marker = SimpleNamespace(args=("c",)) if component else None
    return SimpleNamespace(nodeid=nodeid, _fixtureinfo=info, get_closest_marker=lambda name: marker)


def test_slow_by_own_time_or_an_unpaid_dear_fixture_and_never_a_component():
    record = {
        "tests": {"dear": SLOW_S, "cheap": SLOW_S - 0.1, "check": 500.0},
        "fixtures": {"::paid": 100.0, "::unpaid": 100.0, "::light": 1.0},
    }
    items = [
        item("dear"),
        item("cheap"),
        item("check", ["paid"], component=True),
        item("rides_along", ["paid"]),
        item("needs_unpaid", ["unpaid"]),
        item("needs_light", ["light"]),
        item("unmeasured"),
    ]
    assert [i.nodeid for i in tier(items, record)] == ["dear", "needs_unpaid"]
