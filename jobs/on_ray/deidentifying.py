"""The Ray edge of de-identification: an actor pool (detectors loaded once per actor)
takes blocks of whole shards, de-identifies them and writes each shard, and its key when
asked, itself; the driver gets back only counts."""

import os

import pyarrow as pa

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import ray

from jobs.on_ray.session import UserErrorAtStart, connect, data_context


class Scrubber(UserErrorAtStart):
    """Ray Data actor: detectors (and the language model) built once; a block of whole
    shards in, their counts out."""

    def __init__(self, options: dict, output: str, key_output: str | None, threads: int):
        import torch

        from synth.deid.writing import make_tools

        torch.set_num_threads(threads)
        self.options, self.output, self.key_output = options, output, key_output
        self.started(lambda: setattr(self, "tools", make_tools(options)))

    def __call__(self, block: pa.Table) -> pa.Table:
        from synth.deid.writing import write_deidentified

        self.check_started()
        return write_deidentified(block, self.tools, self.options, self.output, self.key_output)


def deidentify(
    blocks: list[pa.Table], options: dict, output: str, key_output, num_actors: int, on_shard
) -> None:
    """Every block through the actor pool; on_shard(shard, rows, spans) as each is written."""
    connect()
    data_context(progress_bars=False)
    cpus = int(ray.cluster_resources().get("CPU", os.cpu_count() or 1))
    # An in-process language model gets a GPU per actor where the cluster has them (or
    # --device cuda asks for one, which makes an autoscaler start GPU workers).
    device, model = options.get("device", "auto"), options.get("model") or ""
    gpus = (
        options.get("uses_llm")
        and not model.startswith("openai:")
        and (
            device.startswith("cuda")
            or (device == "auto" and ray.cluster_resources().get("GPU", 0) > 0)
        )
    )
    ds = ray.data.from_arrow(blocks).map_batches(
        Scrubber,
        fn_constructor_kwargs={
            "options": options,
            "output": output,
            "key_output": key_output,
            "threads": max(1, cpus // num_actors),
        },
        batch_size=None,  # one block of whole shards per call
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=num_actors),
        num_cpus=1,
        num_gpus=1 if gpus else 0,
        max_restarts=-1,
        max_task_retries=3,
    )
    for counts in ds.iter_batches(batch_format="pyarrow", batch_size=None, prefetch_batches=0):
        for shard, rows, spans in zip(*(counts.column(c).to_pylist() for c in counts.column_names)):
            on_shard(shard, rows, spans)
