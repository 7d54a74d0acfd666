"""Where the randomness of the DP mechanisms comes from.

The noise must be unpredictable to whoever reads the model file. If it came from the
config's seed, which the model file and the manifests record, anyone could replay the
Laplace draws, subtract them and read the exact private counts; two fits with one seed
(two ε, or last month's and this month's data) would also give away the difference of
their counts. So `hrsynth fit` always draws its noise from the operating system's secure
generator and records no noise seed. A fitted model file is the reproducible artefact:
sampling from it is seeded (see BayesNet.sample).
"""

import secrets

import numpy as np

SECURE = "secrets.SystemRandom (operating system entropy, not replayable)"


def noise_source(random_state: int | np.random.RandomState | None = None):
    """The generator diffprivlib's mechanisms draw from.

    None (what the jobs pass): a fresh secrets.SystemRandom. An int or RandomState makes
    the noise reproducible, for unit tests and utility benchmarks on public data only:
    a fit seeded this way is not private against anyone who knows the seed.
    """
    if random_state is None:
        return secrets.SystemRandom()
    if isinstance(random_state, np.random.RandomState):
        return random_state
    return np.random.RandomState(random_state)
