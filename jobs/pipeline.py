"""The one module that wires generation to Ray Data.

Planned jobs become Arrow blocks of `batch_size` rows; an actor pool (model loaded once
per actor, one GPU per actor when the cluster has GPUs) fills each batch's slots; the
driver streams the results back and writes each shard as soon as all its rows are in.
"""

import json
import os
from collections import defaultdict

import pyarrow as pa

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import ray

from jobs.ray_session import connect
from synth.params import params_from


class SlotFiller:
    """Ray Data actor: holds one model, turns a batch of jobs into contract rows."""

    def __init__(
        self,
        model: str,
        device: str,
        dtype: str,
        generation: dict,
        style: str,
        seed: int,
        threads: int,
    ):
        import torch

        from synth.engine import Generator

        torch.set_num_threads(threads)
        gen = dict(generation)
        self.params = params_from(gen.pop("preset", "default"), gen)
        self.generator = Generator(model, device, dtype)
        self.style, self.seed = style, seed

    def __call__(self, batch: pa.Table) -> pa.Table:
        from synth.documents import render

        jobs = [json.loads(s) for s in batch.column("job").to_pylist()]
        rows = render(jobs, self.generator, self.params, self.style, self.seed)
        return pa.table({"shard": [j["shard"] for j in jobs], "row": [json.dumps(r) for r in rows]})


def generate(jobs: list[dict], cfg, shard_sizes: dict[int, int], on_shard) -> None:
    """Run every job through the actor pool; call on_shard(shard, rows) per finished shard."""
    connect()
    blocks = [
        pa.table({"shard": [j["shard"] for j in chunk], "job": [json.dumps(j) for j in chunk]})
        for chunk in (jobs[i : i + cfg.batch_size] for i in range(0, len(jobs), cfg.batch_size))
    ]
    # An autoscaling cluster shows no GPU until a GPU worker is up: device cuda asks for
    # one per actor anyway, which is what makes the autoscaler start them.
    gpus = cfg.device.startswith("cuda") or (
        cfg.device == "auto" and ray.cluster_resources().get("GPU", 0) > 0
    )
    cpus = int(ray.cluster_resources().get("CPU", os.cpu_count() or 1))
    actors = cfg.num_actors
    threads = cfg.threads_per_actor or max(1, cpus // actors)
    ds = ray.data.from_arrow(blocks).map_batches(
        SlotFiller,
        fn_constructor_kwargs={
            "model": cfg.model,
            "device": cfg.device,
            "dtype": cfg.dtype,
            "generation": cfg.generation,
            # tickets carry their own style; this one is for CVs
            "style": cfg.prompt_style if isinstance(cfg.prompt_style, str) else "plain",
            "seed": cfg.seed,
            "threads": threads,
        },
        batch_size=cfg.batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=actors),
        num_cpus=1,
        num_gpus=1 if gpus else 0,
    )
    pending = defaultdict(list)
    for batch in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        for shard, row in zip(batch.column("shard").to_pylist(), batch.column("row").to_pylist()):
            pending[shard].append(json.loads(row))
            if len(pending[shard]) == shard_sizes[shard]:
                on_shard(shard, pending.pop(shard))
    if pending:
        raise RuntimeError(f"shards {sorted(pending)} came back incomplete")
