"""Prompts grouped by length for CTranslate2, and the groups shared among its decoders.

CTranslate2 prefills a batch only up to its shortest prompt; the rest of every longer
prompt is fed one token per decoding step, at the price of a whole step of the batch
(measured here: 64 prompts of 18 and 180 tokens take ten times as long as 64 of 180).
A slot's prompts range from a header alone to a long ticket, so one batch of them spends
most of its steps reading prompts. Grouping prompts of similar length removes those
steps; each extra group costs its own decoding steps, so the grouping minimises a cost
model of both (exact, by dynamic programming over the sorted lengths).
"""

# Milliseconds per decoding step: a fixed part and a part per row (CTranslate2 int8,
# SmolLM2-135M, one thread, this machine's kind). Only their ratio shapes the groups.
STEP_MS = 15.0
ROW_MS = 2.0


def group_by_length(lengths: list[int], new_tokens: int) -> list[list[int]]:
    """Indices of `lengths` in groups (each sorted by length) that minimise
    Σ (longest − shortest + new_tokens) × (STEP_MS + ROW_MS × rows)."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    sizes = [lengths[i] for i in order]
    n = len(order)
    best = [0.0] + [float("inf")] * n  # best[j]: cheapest grouping of the first j prompts
    cut = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(j):
            steps = sizes[j - 1] - sizes[i] + new_tokens
            cost = best[i] + steps * (STEP_MS + ROW_MS * (j - i))
            if cost < best[j]:
                best[j], cut[j] = cost, i
    groups, j = [], n
    while j > 0:
        groups.append(order[cut[j] : j])
        j = cut[j]
    return groups[::-1]


def share_among(groups: list[list[int]], lengths: list[int], new_tokens: int, workers: int):
    """The groups dealt to `workers` decoders, longest work first to the least loaded
    (deterministic: the same groups always go to the same decoder, in the same order)."""

    def cost(group):
        steps = lengths[group[-1]] - lengths[group[0]] + new_tokens
        return steps * (STEP_MS + ROW_MS * len(group))

    shares: list[list[list[int]]] = [[] for _ in range(max(1, min(workers, len(groups))))]
    loads = [0.0] * len(shares)
    for group in sorted(groups, key=lambda g: (-cost(g), g[0])):
        w = loads.index(min(loads))
        shares[w].append(group)
        loads[w] += cost(group)
    return shares
