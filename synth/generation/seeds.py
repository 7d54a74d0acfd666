"""Seeds that name a request (the run's seed, a document, a slot, an attempt), so a
request draws the same numbers however requests are batched (row_sampling). Pure Python:
the rollout computes them without torch."""

MASK64 = (1 << 64) - 1
GOLDEN, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _mix(x: int) -> int:
    """splitmix64's finaliser, after its increment."""
    x = (x + GOLDEN) & MASK64
    x = ((x ^ (x >> 30)) * MIX1) & MASK64
    x = ((x ^ (x >> 27)) * MIX2) & MASK64
    return x ^ (x >> 31)


def request_seed(*parts: int) -> int:
    """A seed from the numbers that name a request: the same parts give the same seed on
    every machine; a non-negative int64."""
    x = 0
    for part in parts:
        x = _mix(x ^ (int(part) & MASK64))
    return x >> 1
