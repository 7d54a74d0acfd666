"""The held-out split of a private table: rows `fit` never sees, kept for privacy checks.

A distance-to-closest-record test needs real rows from the same population that the
model did not learn from. The split is a pure function of (row count, fraction, seed), so
the model file records only those three public numbers and the evaluation job rebuilds the
same split from the same private file without any row index leaving the environment.
"""

import numpy as np

from synth import ConfigError


def holdout_mask(rows: int, fraction: float, seed: int) -> np.ndarray:
    """Boolean mask over the table's rows: True for the held-out ones."""
    if not 0.0 <= fraction < 1.0:
        raise ConfigError(
            f"holdout share {fraction}: use a number in [0, 1), e.g. `hrsynth fit --holdout 0.2`"
        )
    held = round(rows * fraction)
    mask = np.zeros(rows, dtype=bool)
    # Its own stream, so the split never shifts with how the fit uses its seed.
    mask[np.random.default_rng([seed, 7919]).permutation(rows)[:held]] = True
    return mask
