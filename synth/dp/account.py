"""The ε a refresh root has spent on its private table, summed over every refit.

Each refit is a new DP release of the private rows. By sequential composition the
privacy loss of a row that stays in the table adds up over refits, whatever any one
model's ledger says: thirty daily refits at ε = 1 are ε = 30 for the people in the table.
So `refresh` charges every refit to ROOT/privacy_account.json before the fit runs (a
crash can never leave a release uncounted), and refuses, before writing anything, a
refit that would take the total over --total-budget. One account per root: a root is
one dataset line fed by one private source, and adding up everything it fitted is the
conservative reading when that source changes.
"""

import math
import time

from synth import ConfigError
from synth.io.lock import shared_state_lock
from synth.io.storage import exists, filesystem, join, read_state, write_json

ACCOUNT = "privacy_account.json"


def read_account(root: str) -> dict:
    fs, folder = filesystem(root)
    path = join(folder, ACCOUNT)
    if not exists(fs, path):
        return {"spent": 0.0, "entries": []}
    account = read_state(
        fs, path, "restore it from a backup: it is the record of the ε spent (never delete it)"
    )
    if not isinstance(account.get("entries"), list) or "spent" not in account:
        raise ConfigError(f"{path} is damaged (no spent or entries); restore it from a backup")
    spent, entries = account["spent"], account["entries"]
    epsilons = [e.get("epsilon") if isinstance(e, dict) else None for e in entries]
    if not all(_amount(x) for x in [spent, *epsilons]) or not math.isclose(
        spent, math.fsum(epsilons), rel_tol=1e-9, abs_tol=1e-12
    ):
        raise ConfigError(
            f"{path} is damaged (spent must be a number ≥ 0 that equals the sum of its "
            "entries' epsilon); restore it from a backup: it is the record of the ε spent"
        )
    return account


def _amount(value) -> bool:
    """An ε the account can hold: a finite number ≥ 0 (not a boolean)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def check(account: dict, epsilon: float, total_budget: float | None) -> None:
    """Refuse a refit that the root's total budget cannot pay for."""
    after = account["spent"] + epsilon
    if total_budget is not None and after > total_budget * (1 + 1e-12):
        raise ConfigError(
            f"--epsilon {epsilon:g} would bring the ε spent on this root's private data to "
            f"{after:g}, over --total-budget {total_budget:g} ({len(account['entries'])} "
            "refits so far, see privacy_account.json): reuse a fitted model with --dp-model, "
            "or raise --total-budget as a deliberate decision"
        )


def charge(root: str, version: str, epsilon: float, data: str, total_budget: float | None) -> dict:
    """Record one refit (checked against the budget first); returns the new account.
    Read, check and rewrite happen under the root's lock: two refits at once (a
    schedule and a person) would otherwise both read the old total, and one charge would
    be lost: ε under-counted."""
    with shared_state_lock(join(root, ACCOUNT)):
        return _charge(root, version, epsilon, data, total_budget)


def _charge(root: str, version: str, epsilon: float, data: str, total_budget) -> dict:
    account = read_account(root)
    check(account, epsilon, total_budget)
    entries = [
        *account["entries"],
        {"version": version, "epsilon": epsilon, "data": str(data), "at": time.time()},
    ]
    account = {
        "spent": sum(e["epsilon"] for e in entries),
        "total_budget": total_budget,
        "entries": entries,
    }
    write_json(join(root, ACCOUNT), account)
    return account
