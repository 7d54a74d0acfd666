"""The Ray edge of de-identification: a pool of actors (jobs/on_ray/steps_actor.py, each
with deidentify's steps and their detectors built once) takes one shard at a time,
de-identifies it and writes it, and its key when asked, itself; the driver gets back
only counts.

The driver reads the input a shard at a time and hands a shard to an actor only when
one is free: what it holds, and what waits in Ray's object store, is one shard per actor
and the one being read, whatever the input's size (a Ray dataset made from the whole
input held 10,000 documents of 150,000 characters, 7.4 GB, before the first shard).
Ray restarts an actor whose process or node died and retries its shard (a written shard
is whole: writes are atomic)."""

import os
from functools import partial

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import ray

from jobs.on_ray.session import connect
from jobs.on_ray.steps_actor import StepsActor


def deidentify(
    blocks, options: dict, output: str, key_output, num_actors: int, shards: int, on_shard
) -> None:
    """Every block (one shard each, an iterator read as it goes) through a pool of at
    most `num_actors` actors, one block in flight per actor; on_shard(shard, rows, spans,
    counts) as each is written (counts: the steps' counts, a JSON object, on one shard of
    each block). `shards`: how many blocks will come (no more actors than that)."""
    from synth.deid.writing import RETURNS, job_steps

    connect()
    cpus = int(ray.cluster_resources().get("CPU", os.cpu_count() or 1))
    size = max(1, min(num_actors or cpus, shards))  # None: one per CPU
    # An in-process language model and the BIO detector's encoder get a GPU per actor
    # where the cluster has them (or --device cuda asks for one, which makes an
    # autoscaler start GPU workers); by default no more actors than GPUs then.
    device, model = options.get("device", "auto"), options.get("model") or ""
    cluster_gpus = int(ray.cluster_resources().get("GPU", 0))
    gpus = (device.startswith("cuda") or (device == "auto" and cluster_gpus > 0)) and (
        (options.get("uses_llm") and not model.startswith("openai:"))
        or "ner" in options.get("detectors", [])
    )
    if gpus and num_actors is None and cluster_gpus:
        size = min(size, cluster_gpus)
    actor = ray.remote(StepsActor).options(
        num_cpus=1, num_gpus=1 if gpus else 0, max_restarts=-1, max_task_retries=3
    )
    threads = max(1, cpus // size)
    make_steps = partial(job_steps, options, output, key_output)
    pool = [actor.remote(make_steps, threads, RETURNS) for _ in range(size)]
    running = {}  # the call's reference -> the actor working on it

    def collect_one() -> None:
        (ref,), _ = ray.wait(list(running), num_returns=1)
        pool.append(running.pop(ref))
        counts = ray.get(ref)
        columns = ("shard", "rows", "spans", "counts")
        for shard, rows, spans, steps in zip(*(counts.column(c).to_pylist() for c in columns)):
            on_shard(shard, rows, spans, steps)

    try:
        for block in blocks:
            if not pool:
                collect_one()
            scrubber = pool.pop()
            running[scrubber.__call__.remote(block)] = scrubber
            del block  # the object store holds it until the actor is done
        while running:
            collect_one()
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        for scrubber in pool + list(running.values()):
            ray.kill(scrubber)
