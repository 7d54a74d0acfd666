"""PrivBayes (Zhang et al., TODS 2017) on diffprivlib's mechanisms.

The only code that reads private rows. Structure: greedy, one attribute at a time, each
choice of (attribute, parent set) made by the exponential mechanism on mutual
information. Candidate parent sets hold at most k attributes and, for non-binary domains
(the paper's extension), only tables small enough to stay θ-useful under the noise they
will get: mutual information grows with table size on small samples, so without this
rule the mechanism favours tables that end up pure noise. Conditionals: Laplace noise on
each (parents, attribute) count table, clipped at zero and normalised (tables too small
for their noise are smoothed first). Every call is
recorded in the Ledger; the model keeps only noised tables, the schema and the ledger.
"""

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import diffprivlib
import numpy as np
from diffprivlib.mechanisms import Exponential, Laplace

from synth import ConfigError
from synth.dp.ledger import Ledger
from synth.dp.noise import noise_source
from synth.dp.schema import Schema, decode, schema_from_dict

# Neighbouring relation replace-one: changing one row moves one unit of count from one
# cell to another in every marginal, so each count table has L1 sensitivity 2.
COUNT_SENSITIVITY = 2.0
# β, the share of ε spent on structure, and θ, the usefulness threshold: the paper's defaults.
STRUCTURE_SHARE = 0.3
THETA = 4.0


@dataclass
class BayesNet:
    schema: Schema
    order: list[int]  # attribute indices, parents always earlier
    parents: dict[int, list[int]]
    conditionals: dict[int, np.ndarray]  # shape (prod parent sizes, size)
    ledger: Ledger
    degree: int
    # How the model was fitted (ε, noise source, rows, held-out split): public, no row values.
    fit_info: dict = field(default_factory=dict)

    def sample(self, n: int, seed: int | np.random.Generator):
        """n rows by vectorised ancestral sampling, deterministic given seed (or given
        the state of the generator passed)."""
        rng = np.random.default_rng(seed)
        return decode(self._codes(n, rng), self.schema, rng)

    def sample_given(
        self, name: str, values, seed: int | np.random.Generator, max_rounds: int = 50
    ):
        """Rows whose attribute `name` takes `values` (one per row), the other attributes
        drawn from the network conditional on it; and how many rows were clamped.

        Sampling costs no ε (post-processing), so this lets a caller choose the labels
        (e.g. balanced) instead of the noisy marginal. If `name` has no ancestors in the
        network (always so at degree 0), fixing it before ancestral sampling is exact.
        Otherwise rows are drawn by rejection, up to `max_rounds` batches; a value the
        network (almost) never produces is then fixed in place ("clamped": its ancestors
        ignore it), and the count is returned so the caller can report it."""
        index = self.schema.names.index(name)
        attribute = self.schema.attributes[index]
        if attribute.type != "categorical":
            raise ConfigError(f"sample_given: attribute '{name}' is not categorical")
        unknown = sorted(set(values) - set(attribute.values))
        if unknown:
            raise ConfigError(f"sample_given: {unknown} not in the domain of '{name}'")
        wanted = np.array([attribute.values.index(v) for v in values], dtype=np.int64)
        rng = np.random.default_rng(seed)
        n = len(wanted)
        if not self._ancestors(index):
            return decode(self._codes(n, rng, {index: wanted}), self.schema, rng), 0
        codes = np.zeros((n, len(self.schema.attributes)), dtype=np.int64)
        missing = np.ones(n, dtype=bool)
        for _ in range(max_rounds):
            if not missing.any():
                break
            drawn = self._codes(max(n, 1000), rng)
            for code in np.unique(wanted[missing]):
                rows = np.flatnonzero(missing & (wanted == code))
                pool = drawn[drawn[:, index] == code][: len(rows)]
                codes[rows[: len(pool)]] = pool
                missing[rows[: len(pool)]] = False
        clamped = int(missing.sum())
        if clamped:
            codes[missing] = self._codes(clamped, rng, {index: wanted[missing]})
        return decode(codes, self.schema, rng), clamped

    def _ancestors(self, i: int) -> set[int]:
        found, todo = set(), list(self.parents[i])
        while todo:
            p = todo.pop()
            if p not in found:
                found.add(p)
                todo.extend(self.parents[p])
        return found

    def _codes(self, n: int, rng, fixed: dict[int, np.ndarray] | None = None) -> np.ndarray:
        """Ancestral sampling in network order; `fixed` columns are set, not drawn."""
        fixed = fixed or {}
        sizes = [a.size for a in self.schema.attributes]
        codes = np.zeros((n, len(sizes)), dtype=np.int64)
        for i in self.order:
            if i in fixed:
                codes[:, i] = fixed[i]
                continue
            parent_index = np.zeros(n, dtype=np.int64)
            for p in self.parents[i]:
                parent_index = parent_index * sizes[p] + codes[:, p]
            cumulative = np.cumsum(self.conditionals[i], axis=1)[parent_index]
            u = rng.random(n)[:, None] * cumulative[:, -1:]
            codes[:, i] = np.minimum((cumulative < u).sum(axis=1), sizes[i] - 1)
        return codes

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
        fit_info=doc.get("fit", {}),
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


def max_table_cells(n: int, d: int, epsilon: float, theta: float | None) -> float:
    """Largest count table that stays θ-useful: n·ε/(2·d·cells) ≥ θ.

    ε is the conditionals' whole budget, shared by at most d tables, and 2 is the count
    sensitivity: the expected signal per cell is then at least θ times the noise scale.
    """
    return math.inf if theta is None else n * epsilon / (2 * d * theta)


def choose_degree(n: int, sizes: list[int], epsilon: float, theta: float = THETA) -> int:
    """Largest k whose typical (k+1)-way table is θ-useful (geometric mean domain size)."""
    d, mean_size = len(sizes), float(np.exp(np.mean(np.log(sizes))))
    limit = max_table_cells(n, d, epsilon, theta)
    k = 0
    while k + 1 < d and mean_size ** (k + 2) <= limit:
        k += 1
    return k


def feasible_degree(sizes: list[int], degree: int, max_cells: float) -> int:
    """Most parents any attribute can have when tables are capped at max_cells cells."""
    smallest = sorted(sizes)
    k = 0
    while k < degree and math.prod(smallest[: k + 2]) <= max_cells:
        k += 1
    return k


def noisy_counts(counts: np.ndarray, epsilon: float, rng) -> np.ndarray:
    """diffprivlib's Laplace mechanism on every cell of one count table (scale 2/ε)."""
    mech = Laplace(epsilon=epsilon, sensitivity=COUNT_SENSITIVITY, random_state=rng)
    return np.array([mech.randomise(float(c)) for c in counts])


def _normalise(noisy: np.ndarray, epsilon: float, n: int, theta: float | None) -> np.ndarray:
    """Rows of noisy counts -> conditional distributions (post-processing: costs no ε).

    Clip at zero and normalise; a row left with no mass is uniform. A table that is not
    θ-useful (mean count per cell below θ noise scales, judged from the public n, the
    table's size and ε alone) first gets a pseudo-count of half the noise scale in every
    cell, the mean that clipped noise leaves in an empty cell: such a table is mostly
    noise, and its rows are better nearly flat than following a few noise spikes.
    Measured both ways in benchmarks/privacy/privbayes.py (benchmarks/results/privbayes.md).
    """
    scale = COUNT_SENSITIVITY / epsilon
    useful = theta is None or n / (noisy.size * scale) >= theta
    shrunk = noisy.clip(min=0) + (0.0 if useful else 0.5 * scale)
    totals = shrunk.sum(axis=1, keepdims=True)
    return np.where(totals > 0, shrunk / np.where(totals > 0, totals, 1), 1.0 / noisy.shape[1])


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


class NoisyTables:
    """The conditionals' noisy count tables, each spending its ε in the ledger: what
    fit does once the structure is chosen. `eps_each`: every table's share."""

    def __init__(self, codes, schema: Schema, sizes, eps_each: float, theta, ledger, rng):
        self.codes, self.schema, self.sizes, self.eps_each = codes, schema, sizes, eps_each
        self.theta, self.ledger, self.rng = theta, ledger, rng

    def conditionals(self, order, parents, head) -> dict:
        codes, schema, sizes, eps_each = self.codes, self.schema, self.sizes, self.eps_each
        theta, ledger, rng, n = self.theta, self.ledger, self.rng, len(self.codes)
        conditionals = {}
        if head:
            # The first k+1 attributes' conditionals all follow from one (k+1)-way table, as in
            # the paper: d - k noisy tables instead of d, so each gets more of the budget.
            shape = [sizes[a] for a in head]
            counts = np.bincount(_combined(codes, head, sizes), minlength=int(np.prod(shape)))
            joint = noisy_counts(counts, eps_each, rng).clip(min=0).reshape(shape)
            ledger.spend(
                f"joint counts of {[schema.names[a] for a in head]}",
                eps_each,
                COUNT_SENSITIVITY,
                "Laplace",
            )
            for j, a in enumerate(head):
                marginal = joint.sum(axis=tuple(range(j + 1, len(head)))).reshape(-1, sizes[a])
                conditionals[a] = _normalise(marginal, eps_each, n, theta)
        for i in order:
            if i in conditionals:
                continue
            p_size = int(np.prod([sizes[p] for p in parents[i]])) if parents[i] else 1
            counts = np.bincount(
                _combined(codes, parents[i], sizes) * sizes[i] + codes[:, i],
                minlength=p_size * sizes[i],
            ).astype(float)
            noisy = noisy_counts(counts, eps_each, rng).reshape(p_size, sizes[i])
            ledger.spend(
                f"conditional counts of {schema.names[i]} | {[schema.names[p] for p in parents[i]]}",
                eps_each,
                COUNT_SENSITIVITY,
                "Laplace",
            )
            conditionals[i] = _normalise(noisy, eps_each, n, theta)
        return conditionals


def fit(
    codes: np.ndarray,
    schema: Schema,
    epsilon: float,
    degree: int | None = None,
    graph: dict | None = None,
    random_state=None,
    structure_share: float = STRUCTURE_SHARE,
    theta: float | None = THETA,
    ledger: Ledger | None = None,
) -> BayesNet:
    """Fit on encoded private rows (see dp_schema.encode). Spends at most `epsilon`.

    degree caps the parents per attribute (None: chosen from n, d and ε); theta limits
    parent sets to θ-useful tables (None: any set of `degree` parents, as in the binary
    version of the paper); structure_share is β, the part of ε spent on the structure.
    random_state: None draws the noise from the OS's secure generator (see dp_noise: a
    seed is for tests and benchmarks only, since a known seed lets anyone replay the noise).
    """
    if not epsilon > 0:
        raise ConfigError(f"epsilon must be > 0, got {epsilon}")
    if not 0 < structure_share < 1:
        raise ConfigError(f"structure_share must be in (0, 1), got {structure_share}")
    if theta is not None and not theta > 0:
        raise ConfigError(f"theta must be > 0 (or None to turn the θ rule off), got {theta}")
    n, d = codes.shape
    if n < 2:
        raise ConfigError("the private table needs at least 2 rows")
    sizes = [a.size for a in schema.attributes]
    # A ledger passed in already holds earlier spending (vocabulary selection); the
    # network gets what is left of its budget.
    ledger = ledger if ledger is not None else Ledger(float(epsilon))
    epsilon = ledger.budget - ledger.spent
    if not epsilon > 0:
        raise ConfigError("no ε left for the network after the vocabulary selection")
    rng = noise_source(random_state)
    if degree is not None and not 0 <= degree < d:
        raise ConfigError(f"degree k={degree} must be between 0 and {d - 1} (attributes - 1)")
    if graph is not None:
        order, parents = _check_graph(graph, schema.names)
        degree = max((len(p) for p in parents.values()), default=0)
        eps_structure = 0.0
    else:
        eps_conditionals = epsilon * (1 - structure_share)
        if degree is None:
            degree = choose_degree(n, sizes, eps_conditionals, theta or THETA)
        max_cells = max_table_cells(n, d, eps_conditionals, theta)
        # No structure budget when no parent set at all is θ-useful: k = 0 in effect.
        degree = feasible_degree(sizes, degree, max_cells)
        eps_structure = epsilon * structure_share if degree > 0 else 0.0
        order, parents = _greedy_structure(
            codes, sizes, degree, eps_structure, ledger, rng, max_cells
        )
    head = _head(order, parents, degree)
    tables = d - len(head) + 1 if head else d
    # Shaved by 1e-12 so that float rounding of the sum can never exceed the budget.
    eps_each = (epsilon - eps_structure) / tables * (1 - 1e-12)
    noisy = NoisyTables(codes, schema, sizes, eps_each, theta, ledger, rng)
    conditionals = noisy.conditionals(order, parents, head)
    assert ledger.spent <= ledger.budget, "ledger exceeds the budget"
    return BayesNet(schema, order, parents, conditionals, ledger, degree)


def parent_sets(placed: list[int], sizes: list[int], degree: int, max_cells: float):
    """Candidate parent sets among `placed`: (set, its cells, the cells of its cheapest
    extension by one more placed attribute, or inf when it may not grow)."""
    top = min(degree, len(placed))
    for size in range(top, -1, -1):
        for ps in itertools.combinations(placed, size):
            cells = math.prod(sizes[p] for p in ps)
            others = [sizes[p] for p in placed if p not in ps]
            grown = cells * min(others) if size < top and others else math.inf
            yield ps, cells, grown


def qualifies(cells: int, grown: float, child_size: int, max_cells: float) -> bool:
    """A parent set is a candidate for a child when its table (parents × child) fits the
    cap (the empty set always does) and it is maximal: no placed attribute can join it
    within the cap. MI never drops when a parent joins, so the smaller sets would only
    add candidates the mechanism should not prefer."""
    fits = cells == 1 or cells * child_size <= max_cells
    return fits and (grown == math.inf or grown * child_size > max_cells)


def _greedy_structure(codes, sizes, degree, eps_structure, ledger, rng, max_cells=math.inf):
    n, d = codes.shape
    # The paper picks the first attribute at random (random() works on both generators).
    first = min(int(rng.random() * d), d - 1)
    order, parents = [first], {first: []}
    steps = d - 1
    for _ in range(steps):
        candidates, utilities = [], []
        unplaced = [a for a in range(d) if a not in parents]
        # Each parent set's joint index is computed once and scored against every child.
        for ps, p_size, grown in parent_sets(order, sizes, degree, max_cells):
            children = [x for x in unplaced if qualifies(p_size, grown, sizes[x], max_cells)]
            if not children:
                continue
            p_index = _combined(codes, ps, sizes) if ps else None
            for x in children:
                mi = mutual_information(codes[:, x], p_index, sizes[x], p_size) if ps else 0.0
                candidates.append((x, list(ps)))
                utilities.append(mi)
        if degree == 0 or eps_structure == 0:
            choice = 0
        else:
            eps_step = eps_structure / steps * (1 - 1e-12)
            # One sensitivity for all candidates: the larger of the paper's two cases.
            sens = max(mi_sensitivity(n, True), mi_sensitivity(n, False))
            mech = Exponential(
                epsilon=eps_step, sensitivity=sens, utility=utilities, random_state=rng
            )
            choice = mech.randomise()
            ledger.spend(
                "structure: choose next (attribute, parents)", eps_step, sens, "Exponential"
            )
        x, ps = candidates[choice]
        order.append(x)
        parents[x] = ps
    return order, parents


def load_model_file(path: str | None) -> BayesNet | None:
    """A fitted model from its JSON file (None for no path), with one-line errors."""
    if not path:
        return None
    try:
        return from_dict(json.loads(Path(path).read_text()))
    except FileNotFoundError:
        raise ConfigError(
            f"dp_model {path} not found; run `hrsynth fit …` first (make demo does) or fix the path"
        ) from None
    except (json.JSONDecodeError, KeyError):
        raise ConfigError(f"dp_model {path} is not a valid model file; refit it") from None
