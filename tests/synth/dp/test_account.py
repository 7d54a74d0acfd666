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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["privacy_account.json"]


def test_without_a_cap_every_refit_is_still_counted(tmp_path):
    for k in range(3):
        charge(str(tmp_path), f"v={k}", 0.1, "private.csv", None)
    assert read_account(str(tmp_path))["spent"] == pytest.approx(0.3)
