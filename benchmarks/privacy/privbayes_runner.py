"""One DP fit + sample in a fresh process, for benchmarks/privacy/privbayes.py.

Runs with either tool so that time and peak memory are measured the same way:
    python benchmarks/privacy/privbayes_runner.py hrsynth|hrsynth-theta-off|datasynthesizer \
        CODES.csv EPS SEED K N OUT.csv
CODES.csv holds integer codes (one column per attribute, domain 0..size-1, sizes in the
header as name:size). Prints {"fit_s", "peak_mb", "epsilon_spent"} as JSON.
DataSynthesizer is imported only in its own environment (.venv-bench).
"""

import json
import resource
import sys
import time

import numpy as np
import pandas as pd


def run_hrsynth(codes: pd.DataFrame, sizes, eps, seed, k, n, theta="default"):
    sys.path.insert(0, ".")
    from synth.dp.privbayes import fit
    from synth.dp.schema import schema_from_dict

    schema = schema_from_dict(
        {
            "attributes": {
                c: {"type": "categorical", "values": list(range(s))}
                for c, s in zip(codes.columns, sizes)
            }
        }
    )
    start = time.perf_counter()
    extra = {} if theta == "default" else {"theta": theta}
    net = fit(codes.to_numpy(np.int64), schema, eps, degree=k, random_state=seed, **extra)
    seconds = time.perf_counter() - start
    return net.sample(n, seed).astype(int), seconds, net.ledger.spent


def run_datasynthesizer(path, codes, eps, seed, k, n):
    import tempfile

    from DataSynthesizer.DataDescriber import DataDescriber
    from DataSynthesizer.DataGenerator import DataGenerator

    describer = DataDescriber(category_threshold=10_000)
    start = time.perf_counter()
    describer.describe_dataset_in_correlated_attribute_mode(
        path,
        k=k,
        epsilon=eps,
        seed=seed,
        attribute_to_is_categorical={c: True for c in codes.columns},
    )
    seconds = time.perf_counter() - start
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        describer.save_dataset_description_to_file(f.name)
        generator = DataGenerator()
        generator.generate_dataset_in_correlated_attribute_mode(n, f.name, seed=seed)
    # DataSynthesizer spends ε/2 + ε/2 in the network and a full, uncounted ε in the
    # independent-attribute pass it runs first: 2ε in all.
    return generator.synthetic_dataset.astype(int), seconds, 2 * eps


if __name__ == "__main__":
    tool, path, eps, seed, k, n, out = sys.argv[1:8]
    raw = pd.read_csv(path)
    sizes = [int(c.split(":")[1]) for c in raw.columns]
    codes = raw.set_axis([c.split(":")[0] for c in raw.columns], axis=1)
    if tool.startswith("hrsynth"):
        theta = None if tool == "hrsynth-theta-off" else "default"
        synthetic, seconds, spent = run_hrsynth(
            codes, sizes, float(eps), int(seed), int(k), int(n), theta
        )
    else:
        plain = path + ".plain.csv"
        codes.to_csv(plain, index=False)
        synthetic, seconds, spent = run_datasynthesizer(
            plain, codes, float(eps), int(seed), int(k), int(n)
        )
    synthetic.to_csv(out, index=False)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"fit_s": seconds, "peak_mb": peak, "epsilon_spent": spent}))
