"""The root's ε account: refits add up, a refit over the cap is refused unwritten."""

import pytest

from synth import ConfigError
from synth.dp.account import charge, read_account


@pytest.mark.parametrize("uri", [False, True])
def test_refits_add_up_and_the_cap_refuses_without_writing(tmp_path, uri):
    root = tmp_path.as_uri() if uri else str(tmp_path)
    assert read_account(root) == {"spent": 0.0, "entries": []}
    charge(root, "v=1", 1.0, "private.csv", 2.5)
    account = charge(root, "v=2", 1.0, "private.csv", 2.5)
    assert account["spent"] == 2.0 and [e["version"] for e in account["entries"]] == ["v=1", "v=2"]
    with pytest.raises(ConfigError, match=r"to 3, over --total-budget 2.5 \(2 refits"):
        charge(root, "v=3", 1.0, "private.csv", 2.5)
    assert read_account(root) == account
    assert charge(root, "v=3", 0.5, "private.csv", 2.5)["spent"] == 2.5  # exactly the cap
    # the account and its lock (held for each read-modify-write), nothing else
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".privacy_account.json.lock",
        "privacy_account.json",
    ]


def test_without_a_cap_every_refit_is_still_counted(tmp_path):
    for k in range(3):
        charge(str(tmp_path), f"v={k}", 0.1, "private.csv", None)
    assert read_account(str(tmp_path))["spent"] == pytest.approx(0.3)


CHARGE_MANY = """
import sys
from synth.dp.account import charge
for i in range(int(sys.argv[2])):
    charge(sys.argv[1], f"{sys.argv[3]}-{i}", 0.125, "private.csv", None)
"""


def test_two_processes_charging_one_account_at_once_lose_no_charge(tmp_path):
    """A refresh on its schedule and a person's refit at the same moment: each read the
    old total and wrote its own, and ε was under-counted."""
    import subprocess
    import sys

    from synth.dp.account import read_account

    runs = [
        subprocess.Popen([sys.executable, "-c", CHARGE_MANY, str(tmp_path), "40", name])
        for name in ("cron", "person")
    ]
    assert [p.wait(timeout=120) for p in runs] == [0, 0]
    account = read_account(str(tmp_path))
    assert len(account["entries"]) == 80 and account["spent"] == 80 * 0.125


@pytest.mark.parametrize("content", ["", "{", "[]", '{"entries": 3}'])
def test_a_damaged_account_is_one_line_and_never_reset(tmp_path, content):
    """A parser's trace before; and an account read as empty would re-grant spent ε."""
    (tmp_path / "privacy_account.json").write_text(content)
    with pytest.raises(ConfigError, match=r"privacy_account.json is damaged.*backup") as error:
        charge(str(tmp_path), "v=9", 1.0, "private.csv", 5.0)
    assert "\n" not in str(error.value)
    assert (tmp_path / "privacy_account.json").read_text() == content
