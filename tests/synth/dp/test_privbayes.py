import numpy as np
import pandas as pd
import pytest

from synth import ConfigError
from synth.dp.privbayes import fit, from_dict
from synth.dp.schema import encode, load_schema, schema_from_dict

SCHEMA = schema_from_dict(
    {
        "attributes": {
            "a": {"type": "categorical", "values": [0, 1, 2]},
            "b": {"type": "categorical", "values": [0, 1]},
            "c": {"type": "numeric", "bins": [0, 10, 20, 30]},
            "d": {"type": "categorical", "values": ["x", "y", "z", "w"]},
        }
    }
)


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
    net = fit(codes, SCHEMA, epsilon=1e5, degree=2, random_state=1)
    sample = net.sample(100_000, seed=2)
    sample["c"] = sample["c"] // 10
    data = data.assign(c=data["c"] // 10)
    for cols in (["a"], ["b"], ["c"], ["d"], ["a", "b"], ["b", "c"], ["a", "d"]):
        assert tvd(data, sample.astype(data.dtypes.to_dict()), cols) < 0.02, cols


@pytest.mark.parametrize(
    "kwargs",
    [
        {"degree": 0},
        {"degree": 1},
        {"degree": 3},
        {},
        {"graph": {"b": ["a"], "c": ["b"], "d": ["a", "b"]}},
    ],
)
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 7.3])
def test_ledger_never_exceeds_the_budget(kwargs, epsilon):
    codes, _ = encode(correlated(500), SCHEMA)
    net = fit(codes, SCHEMA, epsilon=epsilon, random_state=3, **kwargs)
    ledger = net.ledger.to_dict()
    assert ledger["spent"] <= epsilon
    assert sum(e["epsilon"] for e in ledger["entries"]) == pytest.approx(ledger["spent"])
    laplace = [e for e in ledger["entries"] if e["mechanism"] == "Laplace"]
    k = net.degree
    assert len(laplace) == (4 - k if k and "graph" not in kwargs else 4)
    if "graph" in kwargs or kwargs.get("degree") == 0:
        assert all(e["mechanism"] == "Laplace" for e in ledger["entries"])


GRAPH = {"b": ["a"], "c": ["b"], "d": ["a", "b"]}


@pytest.mark.parametrize("given", ["a", "d"])  # a root (fixed exactly), a child (rejection)
def test_sampling_given_a_value_follows_the_conditionals(given):
    data = correlated(20_000)
    codes, _ = encode(data, SCHEMA)
    net = fit(codes, SCHEMA, epsilon=1e5, graph=GRAPH, random_state=1)
    domain = SCHEMA.attributes[SCHEMA.names.index(given)].values
    wanted = np.array([domain[i % len(domain)] for i in range(40_000)], dtype=object)
    sample, clamped = net.sample_given(given, wanted, seed=2)
    assert clamped == 0
    assert list(sample[given]) == list(wanted)
    sample = sample.astype({given: data[given].dtype})
    for value in domain:
        real = data[data[given] == value]["b"].value_counts(normalize=True)
        drawn = sample[sample[given] == value]["b"].value_counts(normalize=True)
        assert real.sub(drawn, fill_value=0).abs().sum() < 0.03, value


def test_a_value_never_drawn_is_clamped_and_counted():
    codes, _ = encode(correlated(2_000), SCHEMA)
    net = fit(codes, SCHEMA, epsilon=1e5, graph=GRAPH, random_state=1)
    sample, clamped = net.sample_given("d", ["w", "x", "w"], seed=0, max_rounds=0)
    assert clamped == 3 and list(sample["d"]) == ["w", "x", "w"]
    with pytest.raises(ConfigError, match="not in the domain of 'd'"):
        net.sample_given("d", ["v"], seed=0)
    with pytest.raises(ConfigError, match="'c' is not categorical"):
        net.sample_given("c", [1], seed=0)


def test_model_round_trips_and_holds_no_raw_counts():
    one_row = pd.DataFrame({"a": [2] * 50, "b": [1] * 50, "c": [25] * 50, "d": ["w"] * 50})
    codes, _ = encode(one_row, SCHEMA)
    truth = {"a": 2, "b": 1, "c": 2, "d": 3}
    revealed = 0
    for seed in range(20):
        doc = fit(codes, SCHEMA, epsilon=0.05, degree=0, random_state=seed).to_dict()
        for name, table in doc["conditionals"].items():
            probs = np.asarray(table)[0]
            assert np.isclose(probs.sum(), 1)
            revealed += probs[truth[name]] > 0.999
    # Exact counts would reveal the single row in all 80 tables; the noise hides it in most.
    assert revealed < 40
    assert from_dict(doc).sample(10, 0).shape == (10, 4)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"epsilon": 0}, "epsilon must be > 0"),
        ({"epsilon": -1}, "epsilon must be > 0"),
        ({"epsilon": 1, "degree": 4}, "degree k=4 must be between 0 and 3"),
        ({"epsilon": 1, "graph": {"a": ["b"], "b": ["a"]}}, "cycle"),
    ],
)
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
    from synth.dp.privbayes import COUNT_SENSITIVITY, noisy_counts

    data = correlated(300, seed=4)
    neighbour = data.copy()
    neighbour.iloc[0] = [(data.a[0] + 1) % 3, data.b[0], data.c[0], data.d[0]]  # one row changed
    codes, _ = encode(data, SCHEMA)
    codes2, _ = encode(neighbour, SCHEMA)
    net = fit(codes, SCHEMA, epsilon=2.0, degree=0, random_state=0)
    claim = next(
        e for e in net.ledger.entries if e["purpose"].startswith("conditional counts of a")
    )
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


def test_parent_tables_stay_theta_useful():
    """Small n·ε: every chosen (parents, attribute) table fits the θ cap; off, k parents."""
    from synth.dp.privbayes import STRUCTURE_SHARE, THETA, max_table_cells

    schema = load_schema("configs/absenteeism_schema.yaml")
    table = pd.read_csv("data/demo/absenteeism.csv", sep=schema.separator)
    codes, _ = encode(table, schema)
    sizes = [a.size for a in schema.attributes]
    cap = max_table_cells(len(codes), len(sizes), 5.0 * (1 - STRUCTURE_SHARE), THETA)
    for seed in range(3):
        net = fit(codes, schema, epsilon=5.0, degree=2, random_state=seed)
        cells = [np.prod([sizes[p] for p in ps]) * sizes[i] for i, ps in net.parents.items() if ps]
        assert cells and max(cells) <= cap  # some structure, none of it too fine for the noise
        free = fit(codes, schema, epsilon=5.0, degree=2, random_state=seed, theta=None)
        assert sorted(len(ps) for ps in free.parents.values()) == [0, 1] + [2] * 9


def test_no_structure_budget_when_no_table_is_useful():
    """ε too small for any 2-way table: k = 0 in effect, all ε on the marginals."""
    codes, _ = encode(correlated(200), SCHEMA)
    net = fit(codes, SCHEMA, epsilon=0.05, degree=2, random_state=0)
    assert net.degree == 0 and all(not ps for ps in net.parents.values())
    assert {e["mechanism"] for e in net.ledger.entries} == {"Laplace"}
    assert net.ledger.spent == pytest.approx(0.05)


def test_structure_gets_the_papers_share():
    codes, _ = encode(correlated(20_000), SCHEMA)
    net = fit(codes, SCHEMA, epsilon=2.0, degree=1)  # the jobs' secure noise source
    structure = sum(e["epsilon"] for e in net.ledger.entries if e["mechanism"] == "Exponential")
    assert structure == pytest.approx(0.3 * 2.0)
    assert net.ledger.spent <= 2.0


def test_only_tables_too_small_for_their_noise_are_smoothed():
    from synth.dp.privbayes import _normalise

    # ε = 2: Laplace scale 1. n = 1000 over 3 cells is θ-useful: clipped and normalised.
    strong = _normalise(np.array([[900.0, 100.0, -3.0]]), 2.0, 1000, 4.0)[0]
    assert strong == pytest.approx([0.9, 0.1, 0.0])
    # ε = 0.01: scale 200, n = 50 over 4 cells is not: pseudo-count 100 in every cell,
    # so one noise spike of 50 no longer takes the whole row.
    weak = _normalise(np.array([[50.0, -10.0, 0.0, -70.0]]), 0.01, 50, 4.0)[0]
    assert weak == pytest.approx([150 / 450, 100 / 450, 100 / 450, 100 / 450])
    # θ off: plain clipping, and a row with no mass left is uniform.
    assert _normalise(np.array([[-1.0, -2.0]]), 0.01, 50, None)[0] == pytest.approx([0.5, 0.5])


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"structure_share": 0}, "structure_share must be in"),
        ({"structure_share": 1.5}, "structure_share must be in"),
        ({"theta": 0}, "theta must be > 0"),
    ],
)
def test_bad_budget_split(kwargs, message):
    codes, _ = encode(correlated(100), SCHEMA)
    with pytest.raises(ConfigError, match=message):
        fit(codes, SCHEMA, epsilon=1.0, **kwargs)


def test_fit_job_reports_and_refuses(tmp_path):
    """The CLI: a ledger summary on success, one line and exit 2 on bad input."""
    import subprocess
    import sys

    out = tmp_path / "m.json"
    base = [
        sys.executable,
        "-m",
        "jobs.fit",
        "--data",
        "data/demo/absenteeism.csv",
        "--schema",
        "configs/absenteeism_schema.yaml",
        "--output",
        str(out),
    ]
    ok = subprocess.run(base + ["--epsilon", "2"], check=False, capture_output=True, text=True)
    assert ok.returncode == 0 and "spent 2 of 2.0" in ok.stdout
    doc = from_dict(__import__("json").loads(out.read_text()))
    assert doc.ledger.spent <= 2.0
    bad = subprocess.run(base + ["--epsilon", "-1"], check=False, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "error: --epsilon must be a number in (0, 10000], got -1.0: beyond that the noise "
        "is nil and the model no longer protects anyone"
    )


def test_clip_option_maps_values_and_keeps_their_count_out_of_the_model(tmp_path):
    import json
    import subprocess
    import sys

    table = pd.read_csv("data/demo/absenteeism.csv", sep=";")
    table.loc[:4, "Age"] = 99  # beyond the schema's last age bin
    data = tmp_path / "private.csv"
    table.to_csv(data, sep=";", index=False)
    out = tmp_path / "m.json"
    base = [
        sys.executable,
        "-m",
        "jobs.fit",
        "--data",
        str(data),
        "--schema",
        "configs/absenteeism_schema.yaml",
        "--epsilon",
        "1",
        "--output",
        str(out),
    ]
    refused = subprocess.run(base, check=False, capture_output=True, text=True)
    assert refused.returncode == 2 and "column 'Age'" in refused.stderr
    clipped = subprocess.run(
        base + ["--on-out-of-domain", "clip"], check=False, capture_output=True, text=True
    )
    assert clipped.returncode == 0 and "age_band 5" in clipped.stdout
    assert "age_band" in json.loads(out.read_text())["schema"]["attributes"]
    assert "clipped" not in out.read_text()


def test_held_out_rows_stay_out_of_the_fit(tmp_path):
    """--holdout: the model learns from the other rows only and records n, share and seed."""
    import json
    import subprocess
    import sys

    from synth.dp.holdout import holdout_mask

    out = tmp_path / "m.json"
    base = [
        sys.executable,
        "-m",
        "jobs.fit",
        "--data",
        "data/demo/absenteeism.csv",
        "--schema",
        "configs/absenteeism_schema.yaml",
        "--output",
        str(out),
        "--degree",
        "0",
        "--epsilon",
        "10000",
        "--seed",
        "3",
    ]
    ok = subprocess.run(base + ["--holdout", "0.25"], check=False, capture_output=True, text=True)
    assert ok.returncode == 0 and "185 of 740 rows held out" in ok.stdout
    doc = json.loads(out.read_text())
    assert doc["fit"]["holdout"] == {"fraction": 0.25, "seed": 3, "rows_held_out": 185}
    table = pd.read_csv("data/demo/absenteeism.csv", sep=";")
    fitted = table[~holdout_mask(740, 0.25, 3)]
    expected = fitted["Seasons"].value_counts(normalize=True).sort_index().to_numpy()
    learned = np.asarray(doc["conditionals"]["season"][0])
    assert np.abs(learned - expected).max() < 1e-3  # ε = 10⁴: the noise is negligible
    everyone = table["Seasons"].value_counts(normalize=True).sort_index().to_numpy()
    assert np.abs(learned - everyone).max() > 1e-3  # and it is not the whole table's
    bad = subprocess.run(base + ["--holdout", "1.5"], check=False, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr == "error: --holdout must be < 1, got 1.5\n"
