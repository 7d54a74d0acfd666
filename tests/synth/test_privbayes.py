import numpy as np
import pandas as pd
import pytest

from synth import ConfigError
from synth.dp_schema import encode, load_schema, schema_from_dict
from synth.privbayes import fit, from_dict

SCHEMA = schema_from_dict({"attributes": {
    "a": {"type": "categorical", "values": [0, 1, 2]},
    "b": {"type": "categorical", "values": [0, 1]},
    "c": {"type": "numeric", "bins": [0, 10, 20, 30]},
    "d": {"type": "categorical", "values": ["x", "y", "z", "w"]},
}})


def correlated(n, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = (a + rng.integers(0, 2, n) * (rng.random(n) < 0.2)) % 2
    c = np.where(b == 1, rng.integers(20, 30, n), rng.integers(0, 20, n))
    d = np.array(["x", "y", "z", "w"])[(a + b) % 4]
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d})


def tvd(x: pd.DataFrame, y: pd.DataFrame, cols) -> float:
    px = x.groupby(cols).size() / len(x)
    py = y.groupby(cols).size() / len(y)
    return 0.5 * px.sub(py, fill_value=0).abs().sum()


def test_marginals_converge_at_large_epsilon():
    data = correlated(20_000)
    codes, _ = encode(data, SCHEMA)
    net = fit(codes, SCHEMA, epsilon=1e5, degree=2, seed=1)
    sample = net.sample(100_000, seed=2)
    sample["c"] = sample["c"] // 10
    data = data.assign(c=data["c"] // 10)
    for cols in (["a"], ["b"], ["c"], ["d"], ["a", "b"], ["b", "c"], ["a", "d"]):
        assert tvd(data, sample.astype(data.dtypes.to_dict()), cols) < 0.02, cols


@pytest.mark.parametrize("kwargs", [dict(degree=0), dict(degree=1), dict(degree=3),
                                    dict(), dict(graph={"b": ["a"], "c": ["b"], "d": ["a", "b"]})])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 7.3])
def test_ledger_never_exceeds_the_budget(kwargs, epsilon):
    codes, _ = encode(correlated(500), SCHEMA)
    net = fit(codes, SCHEMA, epsilon=epsilon, seed=3, **kwargs)
    ledger = net.ledger.to_dict()
    assert ledger["spent"] <= epsilon
    assert sum(e["epsilon"] for e in ledger["entries"]) == pytest.approx(ledger["spent"])
    laplace = [e for e in ledger["entries"] if e["mechanism"] == "Laplace"]
    k = net.degree
    assert len(laplace) == (4 - k if k and "graph" not in kwargs else 4)
    if "graph" in kwargs or kwargs.get("degree") == 0:
        assert all(e["mechanism"] == "Laplace" for e in ledger["entries"])


def test_model_round_trips_and_holds_no_raw_counts():
    one_row = pd.DataFrame({"a": [2] * 50, "b": [1] * 50, "c": [25] * 50, "d": ["w"] * 50})
    codes, _ = encode(one_row, SCHEMA)
    truth = {"a": 2, "b": 1, "c": 2, "d": 3}
    revealed = 0
    for seed in range(20):
        doc = fit(codes, SCHEMA, epsilon=0.05, degree=0, seed=seed).to_dict()
        for name, table in doc["conditionals"].items():
            probs = np.asarray(table)[0]
            assert np.isclose(probs.sum(), 1)
            revealed += probs[truth[name]] > 0.999
    # Exact counts would reveal the single row in all 80 tables; the noise hides it in most.
    assert revealed < 40
    assert from_dict(doc).sample(10, 0).shape == (10, 4)


@pytest.mark.parametrize("kwargs,message", [
    (dict(epsilon=0), "epsilon must be > 0"),
    (dict(epsilon=-1), "epsilon must be > 0"),
    (dict(epsilon=1, degree=4), "degree k=4 must be between 0 and 3"),
    (dict(epsilon=1, graph={"a": ["b"], "b": ["a"]}), "cycle"),
])
def test_bad_fit_arguments(kwargs, message):
    codes, _ = encode(correlated(100), SCHEMA)
    with pytest.raises(ConfigError, match=message):
        fit(codes, SCHEMA, **kwargs)


def test_schema_data_mismatch_and_empty_table():
    with pytest.raises(ConfigError, match=r"lacks column\(s\) \['d'\]"):
        encode(correlated(10).drop(columns="d"), SCHEMA)
    with pytest.raises(ConfigError, match="column 'a'.*outside the declared domain"):
        encode(correlated(10).assign(a=7), SCHEMA)
    with pytest.raises(ConfigError, match="no rows"):
        encode(correlated(10).iloc[:0], SCHEMA)


def test_demo_schema_reads_the_demo_table():
    schema = load_schema("configs/absenteeism_schema.yaml")
    table = pd.read_csv("data/demo/absenteeism.csv", sep=schema.separator)
    codes, clipped = encode(table, schema)
    assert codes.shape == (740, len(schema.attributes)) and sum(clipped.values()) == 0


def test_noise_matches_the_ledger_on_neighbouring_tables():
    """Replace one row: the released counts' noise scale and privacy loss are as claimed."""
    from synth.privbayes import COUNT_SENSITIVITY, noisy_counts

    data = correlated(300, seed=4)
    neighbour = data.copy()
    neighbour.iloc[0] = [(data.a[0] + 1) % 3, data.b[0], data.c[0], data.d[0]]  # one row changed
    codes, _ = encode(data, SCHEMA)
    codes2, _ = encode(neighbour, SCHEMA)
    net = fit(codes, SCHEMA, epsilon=2.0, degree=0, seed=0)
    claim = next(e for e in net.ledger.entries if e["purpose"].startswith("conditional counts of a"))
    assert claim["sensitivity"] == COUNT_SENSITIVITY
    c1 = np.bincount(codes[:, 0], minlength=3).astype(float)
    c2 = np.bincount(codes2[:, 0], minlength=3).astype(float)
    assert np.abs(c1 - c2).sum() == claim["sensitivity"]  # the L1 change the ledger assumes
    rng = np.random.RandomState(0)
    draws1 = np.array([noisy_counts(c1, claim["epsilon"], rng) for _ in range(20000)])
    draws2 = np.array([noisy_counts(c2, claim["epsilon"], rng) for _ in range(20000)])
    scale = claim["sensitivity"] / claim["epsilon"]
    assert np.mean(np.abs(draws1 - c1)) == pytest.approx(scale, rel=0.03)
    # Privacy loss on the changed cell: histogram ratio stays within e^ε (+ sampling slack).
    edges = np.linspace(c1[0] - 2 * scale, c1[0] + 2 * scale, 9)
    h1, _ = np.histogram(draws1[:, 0], edges)
    h2, _ = np.histogram(draws2[:, 0], edges)
    ratio = np.maximum(h1 / h2, h2 / h1)
    assert ratio.max() <= np.exp(claim["epsilon"]) * 1.15
    assert ratio.max() >= np.exp(claim["epsilon"] / 4)  # the cells really differ: test can fail
