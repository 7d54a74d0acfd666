"""Where a job's steps meet Ray: one actor class maps a list of steps (synth.steps) over
blocks of whole shards, for generate and deidentify alike.

The steps are made in the actor (`make_steps()`: where the model, the detectors and the
GPU are), once; each call turns its block into a batch, runs the steps, and sends back
only the columns the driver reads (`returns`) and the steps' counts (a JSON object, on
the block's first row). The jobs differ only in what they hand out: generate maps it
over shard numbers with Ray Data (jobs/on_ray/slot_filling.py), deidentify over shards
of documents it reads as it goes (jobs/on_ray/deidentifying.py).
"""

import json
import os

import pyarrow as pa

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

from jobs.on_ray.session import UserErrorAtStart


class StepsActor(UserErrorAtStart):
    """Ray actor: `make_steps()`'s steps built once; a block in, `returns` and the
    counts out."""

    def __init__(self, make_steps, threads: int, returns: tuple[str, ...]):
        import torch

        torch.set_num_threads(threads)
        self.returns = returns
        self.started(lambda: setattr(self, "steps", make_steps()))

    def __call__(self, block) -> pa.Table:
        """`block`: an Arrow table or Ray Data's dict of NumPy columns."""
        from synth.steps import Batch, run_steps

        self.check_started()
        if isinstance(block, pa.Table):
            batch = Batch.of_table(block)
        else:
            batch = Batch({name: values.tolist() for name, values in block.items()})
        done = run_steps(self.steps, batch)
        said = json.dumps(dict(done.counts), sort_keys=True)
        counts = [said] + ["{}"] * (len(done) - 1) if len(done) else []
        return pa.table({**{name: done[name] for name in self.returns}, "counts": counts})
