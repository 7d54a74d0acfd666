"""PrivBayes (Zhang et al., TODS 2017) on diffprivlib's mechanisms.

The only code that reads private rows. Structure: greedy, one attribute at a time, each
choice of (attribute, parent set) made by the exponential mechanism on mutual
information. Conditionals: Laplace noise on each (parents, attribute) count table,
clipped at zero and normalised. Every call is recorded in the Ledger; the model keeps
only noised tables, the schema and the ledger.
"""

import itertools
import math
from dataclasses import dataclass

import diffprivlib
import numpy as np
from diffprivlib.mechanisms import Exponential, Laplace

from synth import ConfigError
from synth.dp_schema import Schema, decode, schema_from_dict
from synth.ledger import Ledger

# Neighbouring relation replace-one: changing one row moves one unit of count from one
# cell to another in every marginal, so each count table has L1 sensitivity 2.
COUNT_SENSITIVITY = 2.0


@dataclass
class BayesNet:
    schema: Schema
    order: list[int]  # attribute indices, parents always earlier
    parents: dict[int, list[int]]
    conditionals: dict[int, np.ndarray]  # shape (prod parent sizes, size)
    ledger: Ledger
    degree: int

    def sample(self, n: int, seed: int):
        """n rows by vectorised ancestral sampling, deterministic given seed."""
        rng = np.random.default_rng(seed)
        sizes = [a.size for a in self.schema.attributes]
        codes = np.zeros((n, len(sizes)), dtype=np.int64)
        for i in self.order:
            parent_index = np.zeros(n, dtype=np.int64)
            for p in self.parents[i]:
                parent_index = parent_index * sizes[p] + codes[:, p]
            cumulative = np.cumsum(self.conditionals[i], axis=1)[parent_index]
            u = rng.random(n)[:, None] * cumulative[:, -1:]
            codes[:, i] = np.minimum((cumulative < u).sum(axis=1), sizes[i] - 1)
        return decode(codes, self.schema, rng)

    def to_dict(self) -> dict:
        names = self.schema.names
        return {
            "format": "hrsynth.privbayes/1",
            "library": {"diffprivlib": diffprivlib.__version__},
            "schema": self.schema.to_dict(),
            "degree": self.degree,
            "order": [names[i] for i in self.order],
            "parents": {names[i]: [names[p] for p in ps] for i, ps in self.parents.items()},
            "conditionals": {names[i]: t.round(8).tolist() for i, t in self.conditionals.items()},
            "ledger": self.ledger.to_dict(),
        }


def from_dict(doc: dict) -> BayesNet:
    if doc.get("format") != "hrsynth.privbayes/1":
        raise ConfigError("model file is not an hrsynth PrivBayes model (format field)")
    schema = schema_from_dict(doc["schema"], "model schema")
    index = {n: i for i, n in enumerate(schema.names)}
    ledger = Ledger(doc["ledger"]["budget"], doc["ledger"]["entries"])
    return BayesNet(
        schema=schema,
        order=[index[n] for n in doc["order"]],
        parents={index[n]: [index[p] for p in ps] for n, ps in doc["parents"].items()},
        conditionals={index[n]: np.asarray(t) for n, t in doc["conditionals"].items()},
        ledger=ledger,
        degree=doc["degree"],
    )


def mi_sensitivity(n: int, binary: bool) -> float:
    """Sensitivity of mutual information under replace-one (PrivBayes, Lemma 4.1)."""
    if binary:
        return math.log2(n) / n + (n - 1) / n * math.log2(n / (n - 1))
    return 2 / n * math.log2((n + 1) / 2) + (n - 1) / n * math.log2((n + 1) / (n - 1))


def mutual_information(x: np.ndarray, parent_index: np.ndarray, x_size: int, p_size: int):
    joint = np.bincount(parent_index * x_size + x, minlength=p_size * x_size).reshape(
        p_size, x_size
    ) / len(x)
    px, pp = joint.sum(axis=0), joint.sum(axis=1)
    nz = joint > 0
    return float((joint[nz] * np.log2(joint[nz] / np.outer(pp, px)[nz])).sum())


def choose_degree(n: int, sizes: list[int], epsilon: float, theta: float = 4.0) -> int:
    """Largest k whose typical (k+1)-way table keeps n·ε/(d·cells) ≥ θ (θ-usefulness)."""
    d, mean_size = len(sizes), float(np.exp(np.mean(np.log(sizes))))
    k = 0
    while k + 1 < d and n * epsilon / (2 * d * mean_size ** (k + 2)) >= theta:
        k += 1
    return k


def noisy_counts(counts: np.ndarray, epsilon: float, rng) -> np.ndarray:
    """diffprivlib's Laplace mechanism on every cell of one count table (scale 2/ε)."""
    mech = Laplace(epsilon=epsilon, sensitivity=COUNT_SENSITIVITY, random_state=rng)
    return np.array([mech.randomise(float(c)) for c in counts])


def _normalise(counts: np.ndarray) -> np.ndarray:
    """Rows of clipped noisy counts -> distributions; an all-zero row becomes uniform."""
    totals = counts.sum(axis=1, keepdims=True)
    return np.where(totals > 0, counts / np.where(totals > 0, totals, 1), 1.0 / counts.shape[1])


def _head(order, parents, degree) -> list[int]:
    """order[:k+1] when each of them has all earlier ones as parents (greedy always does)."""
    head = order[: degree + 1]
    if degree < 1 or any(parents[a] != head[:j] for j, a in enumerate(head)):
        return []
    return head


def _combined(codes, cols, sizes):
    index = np.zeros(len(codes), dtype=np.int64)
    for c in cols:
        index = index * sizes[c] + codes[:, c]
    return index


def _check_graph(graph: dict[str, list[str]], names: list[str]) -> tuple[list[int], dict]:
    index = {n: i for i, n in enumerate(names)}
    unknown = [a for a in list(graph) + [p for ps in graph.values() for p in ps] if a not in index]
    if unknown:
        raise ConfigError(f"graph names unknown attribute(s) {sorted(set(unknown))}")
    parents = {index[n]: [index[p] for p in graph.get(n, [])] for n in names}
    order, placed = [], set()
    while len(order) < len(names):
        ready = [i for i in range(len(names)) if i not in placed and set(parents[i]) <= placed]
        if not ready:
            raise ConfigError("graph has a cycle; a Bayesian network must be acyclic")
        order.append(ready[0])
        placed.add(ready[0])
    return order, parents


def fit(codes: np.ndarray, schema: Schema, epsilon: float, degree: int | None = None,
        graph: dict | None = None, seed: int = 0, structure_share: float = 0.5) -> BayesNet:
    """Fit on encoded private rows (see dp_schema.encode). Spends at most `epsilon`."""
    if not epsilon > 0:
        raise ConfigError(f"epsilon must be > 0, got {epsilon}")
    n, d = codes.shape
    if n < 2:
        raise ConfigError("the private table needs at least 2 rows")
    sizes = [a.size for a in schema.attributes]
    ledger = Ledger(float(epsilon))
    rng = np.random.RandomState(seed)
    if degree is not None and not 0 <= degree < d:
        raise ConfigError(f"degree k={degree} must be between 0 and {d - 1} (attributes - 1)")
    if graph is not None:
        order, parents = _check_graph(graph, schema.names)
        degree = max((len(p) for p in parents.values()), default=0)
        eps_structure = 0.0
    else:
        if degree is None:
            degree = choose_degree(n, sizes, epsilon * (1 - structure_share))
        eps_structure = epsilon * structure_share if degree > 0 and d > 1 else 0.0
        order, parents = _greedy_structure(codes, sizes, degree, eps_structure, ledger, rng)
    # Shaved by 1e-12 so that float rounding of the sum can never exceed the budget.
    head = _head(order, parents, degree)
    tables = d - len(head) + 1 if head else d
    # Shaved by 1e-12 so that float rounding of the sum can never exceed the budget.
    eps_each = (epsilon - eps_structure) / tables * (1 - 1e-12)
    conditionals = {}
    if head:
        # The first k+1 attributes' conditionals all follow from one (k+1)-way table, as in
        # the paper: d - k noisy tables instead of d, so each gets more of the budget.
        shape = [sizes[a] for a in head]
        counts = np.bincount(_combined(codes, head, sizes), minlength=int(np.prod(shape)))
        joint = noisy_counts(counts, eps_each, rng).clip(min=0).reshape(shape)
        ledger.spend(f"joint counts of {[schema.names[a] for a in head]}", eps_each,
                     COUNT_SENSITIVITY, "Laplace")
        for j, a in enumerate(head):
            marginal = joint.sum(axis=tuple(range(j + 1, len(head)))).reshape(-1, sizes[a])
            conditionals[a] = _normalise(marginal)
    for i in order:
        if i in conditionals:
            continue
        p_size = int(np.prod([sizes[p] for p in parents[i]])) if parents[i] else 1
        counts = np.bincount(
            _combined(codes, parents[i], sizes) * sizes[i] + codes[:, i],
            minlength=p_size * sizes[i],
        ).astype(float)
        noisy = noisy_counts(counts, eps_each, rng).reshape(p_size, sizes[i])
        ledger.spend(f"conditional counts of {schema.names[i]} | "
                     f"{[schema.names[p] for p in parents[i]]}", eps_each,
                     COUNT_SENSITIVITY, "Laplace")
        conditionals[i] = _normalise(noisy.clip(min=0))
    assert ledger.spent <= epsilon, "ledger exceeds the budget"
    return BayesNet(schema, order, parents, conditionals, ledger, degree)


def _greedy_structure(codes, sizes, degree, eps_structure, ledger, rng):
    n, d = codes.shape
    first = int(rng.randint(d))  # the paper picks the first attribute at random
    order, parents = [first], {first: []}
    steps = d - 1
    for _ in range(steps):
        placed = order
        k = min(degree, len(placed))
        candidates, utilities = [], []
        unplaced = [a for a in range(d) if a not in parents]
        # Each parent set's joint index is computed once and scored against every child.
        for ps in itertools.combinations(placed, k) if k else [()]:
            p_index = _combined(codes, ps, sizes) if ps else None
            p_size = int(np.prod([sizes[p] for p in ps])) if ps else 1
            for x in unplaced:
                mi = mutual_information(codes[:, x], p_index, sizes[x], p_size) if ps else 0.0
                candidates.append((x, list(ps)))
                utilities.append(mi)
        if degree == 0 or eps_structure == 0:
            choice = 0
        else:
            eps_step = eps_structure / steps * (1 - 1e-12)
            # One sensitivity for all candidates: the larger of the paper's two cases.
            sens = max(mi_sensitivity(n, True), mi_sensitivity(n, False))
            mech = Exponential(epsilon=eps_step, sensitivity=sens, utility=utilities,
                               random_state=rng)
            choice = mech.randomise()
            ledger.spend("structure: choose next (attribute, parents)", eps_step, sens,
                         "Exponential")
        x, ps = candidates[choice]
        order.append(x)
        parents[x] = ps
    return order, parents
