"""The one module that wires generation to Ray Data.

Planned documents become Arrow blocks of `batch_size` rows (synth.record.PLANNED); an
actor pool (model loaded once per actor, one GPU per actor when the cluster has GPUs)
fills each batch's slots and returns contract rows (synth.contract.SCHEMA) plus their
shard; the driver streams them back and writes each shard as soon as all its rows are in.
Both directions are typed Arrow columns: nothing is serialised to JSON on the way.
"""

import os
from collections import defaultdict

import pyarrow as pa

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import ray

from jobs.on_ray.session import connect
from synth.contract import to_table
from synth.generation.engine import engine_factory
from synth.generation.openai_engine import is_endpoint_model
from synth.generation.params import GenerationParams
from synth.record import PlannedDocument, planned_documents, planned_table


class SlotFiller:
    """Ray Data actor: holds one engine, turns a batch of planned documents into rows.

    `make_engine` builds the engine in the actor (where the GPU is): the Hugging Face
    Generator by default, anything with synth.generation.engine.Engine's methods in tests."""

    def __init__(self, make_engine, params: GenerationParams, style: str, seed: int, threads: int):
        import torch

        torch.set_num_threads(threads)
        self.params = params
        self.engine = make_engine()
        self.style, self.seed = style, seed

    def __call__(self, batch: pa.Table) -> pa.Table:
        from synth.generation.render import render

        docs = planned_documents(batch)
        rows = to_table(render(docs, self.engine, self.params, self.style, self.seed))
        return rows.append_column("shard", batch.column("shard"))


def generate(
    docs: list[PlannedDocument], cfg, shard_sizes: dict[int, int], on_shard, make_engine=None
) -> None:
    """Generate every document on the actor pool; call on_shard(shard, table) once per
    finished shard (its contract rows, in any order). `make_engine`: a picklable callable
    building the engine in each actor (default: the config's, engine_factory)."""
    connect()
    size = cfg.batch_size
    blocks = [planned_table(docs[i : i + size]) for i in range(0, len(docs), size)]
    # An autoscaling cluster shows no GPU until a GPU worker is up: device cuda asks for
    # one per actor anyway, which is what makes the autoscaler start them.
    gpus = not is_endpoint_model(cfg.model) and (
        cfg.device.startswith("cuda")
        or (cfg.device == "auto" and ray.cluster_resources().get("GPU", 0) > 0)
    )
    cpus = int(ray.cluster_resources().get("CPU", os.cpu_count() or 1))
    actors = cfg.num_actors
    threads = cfg.threads_per_actor or max(1, cpus // actors)
    ds = ray.data.from_arrow(blocks).map_batches(
        SlotFiller,
        fn_constructor_kwargs={
            "make_engine": make_engine or engine_factory(cfg),
            "params": cfg.generation_params(),
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
    pending = defaultdict(list)  # shard -> the tables of its rows so far
    for batch in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        shards = batch.column("shard").to_numpy()
        for shard in sorted(set(shards.tolist())):
            pending[shard].append(batch.filter(pa.array(shards == shard)).drop_columns(["shard"]))
            if sum(t.num_rows for t in pending[shard]) == shard_sizes[shard]:
                on_shard(shard, pa.concat_tables(pending.pop(shard)))
    if pending:
        raise RuntimeError(f"shards {sorted(pending)} came back incomplete")
