"""The one module that wires generation to Ray Data.

The driver hands out shard numbers, never documents: an actor pool
(jobs/on_ray/steps_actor.py, generate's steps and their model built once per actor, one
GPU per actor when the cluster has GPUs) plans the shards it is given (synth.kinds.Planner,
deterministic from the seed), fills their slots and writes each shard itself; the driver
gets back only each shard's counts. So the driver's memory does not
grow with the number of documents.

Progress within a batch comes from a Tally actor that every filler adds to after each
engine call (tokens) and each batch (documents); a driver thread reads it every few
seconds for the live progress (jobs.progress).
"""

import os
import threading
import time

import numpy as np
import pyarrow as pa

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import ray

from jobs.on_ray.session import connect, data_context
from jobs.on_ray.steps_actor import StepsActor
from synth.deid.audit import AuditSettings
from synth.generation.backends import Backend
from synth.generation.engine import EngineBase, StreamingEngine, checked_continuations
from synth.generation.params import GenerationParams
from synth.kinds import Planner, shard_rows
from synth.shard_writer import RETURNS, Render, ShardWriter


@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class Tally:
    """Documents generated and tokens written so far, across the actor pool, and how many
    generation actors were restarted. A batch retried after its actor died is counted
    again: the driver caps what it shows. Restarted itself (the OOM killer may take it
    too), it counts again from zero: the shard lines come from the disk, not from here."""

    def __init__(self):
        self.documents = self.tokens = self.restarts = 0

    def add(self, documents: int, tokens: int) -> None:
        self.documents += documents
        self.tokens += tokens

    def restarted(self) -> None:
        self.restarts += 1

    def read(self) -> tuple[int, int, int]:
        return self.documents, self.tokens, self.restarts


class TalliedEngine(EngineBase):
    """The actor's engine, adding the tokens of every call to the tally (fire and forget)."""

    def __init__(self, engine, tally):
        self.engine, self.tally = engine, tally
        self.model_ref = engine.model_ref

    def continue_prompts(self, prompts, params, seed):
        answer = self.engine.continue_prompts(prompts, params, seed)
        texts, generated, read = checked_continuations(self.engine, prompts, answer)  # named
        if self.tally is not None:
            self.tally.add.remote(0, sum(generated))
        return texts, generated, read

    def chat_prompt(self, messages):
        return self.engine.chat_prompt(messages)

    @property
    def prefilled_tokens(self) -> int | None:
        """The wrapped engine's count (the shard footers' tokens_prefilled)."""
        return getattr(self.engine, "prefilled_tokens", None)


class TalliedStreamingEngine(TalliedEngine):
    """TalliedEngine over a streaming engine: tokens tallied as each slot comes back."""

    def continue_stream(self, first, params, on_result, seed):
        def tallied(key, text, generated, read):
            if self.tally is not None:
                self.tally.add.remote(0, generated)
            return on_result(key, text, generated, read)

        self.engine.continue_stream(first, params, tallied, seed)


def tallied(engine, tally) -> TalliedEngine:
    streams = isinstance(engine, StreamingEngine)
    return (TalliedStreamingEngine if streams else TalliedEngine)(engine, tally)


class GenerateSteps:
    """generate's steps (synth.shard_writer: plan → render → audit → write), made in the
    actor (jobs/on_ray/steps_actor.py): the engine built there (where the GPU is) and
    tallied. `make_engine`: the configured one by default, anything with
    synth.generation.engine.Engine's methods in tests."""

    def __init__(
        self,
        planner: Planner,
        make_engine,
        params: GenerationParams,
        style: str,
        seed: int,
        output: str,
        batch_size: int,
        audit: AuditSettings,
        tally=None,
    ):
        self.planner, self.make_engine, self.tally = planner, make_engine, tally
        self.rendering, self.audit, self.output = (params, style, seed, batch_size), audit, output

    def __call__(self) -> list:
        tally = self.tally
        if tally is not None and ray.get_runtime_context().was_current_actor_reconstructed:
            tally.restarted.remote()
        on_documents = None if tally is None else lambda n: tally.add.remote(n, 0)
        render = Render(tallied(self.make_engine(), tally), *self.rendering, on_documents)
        return ShardWriter(render, self.audit, self.output).steps(self.planner)


def generate(
    planner: Planner,
    shards,
    cfg,
    output: str,
    on_shard,
    make_engine=None,
    on_tally=None,
    poll_s: float = 5.0,
    on_landed=None,
) -> None:
    """Plan and generate the given shards (numbers) on the actor pool; the actors write
    each shard into `output` (an absolute path or a URI). The driver calls
    on_shard(shard, rows, tokens, failed) as each shard's counts come back through Ray
    Data (late: a task's outputs come together), on_landed(shard, rows, tokens) as each
    shard appears on disk (read every `poll_s` seconds: the progress lines), and
    on_tally(documents, tokens) with the pool's running tally. `make_engine`: a picklable
    callable building the engine in each actor (default: the config's, `cfg.engine`)."""
    connect()
    # Our own progress replaces Ray Data's bars (which show `Total Progress: 0/?` here).
    data_context(progress_bars=on_tally is None)
    tally = Tally.remote() if on_tally else None
    shards = np.asarray(shards, dtype=np.int64)
    spec = cfg.engine  # decided when the config was checked
    gpus, threads, memory_gb, batch_size = _actor_sizes(cfg, spec)
    actors = cfg.scale.num_actors
    # Whole shards per call, as many as fit in a render batch (2 of 64 under 128).
    shards_per_call = max(1, batch_size // cfg.run.shard_size)
    make_steps = GenerateSteps(
        planner,
        make_engine or Backend(spec).factory(),
        cfg.generation_params(),
        # tickets carry their own style; this one is for CVs
        cfg.generator.prompt_style if isinstance(cfg.generator.prompt_style, str) else "plain",
        cfg.run.seed,
        output,
        batch_size,
        cfg.audit_settings(),  # parsed once, here
        tally,
    )
    ds = ray.data.from_arrow(pa.table({"shard": shards})).map_batches(
        StepsActor,
        fn_constructor_kwargs={"make_steps": make_steps, "threads": threads, "returns": RETURNS},
        batch_size=shards_per_call,
        batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(
            min_size=cfg.scale.min_actors or actors, max_size=actors
        ),
        num_cpus=1,
        memory=int(memory_gb * 2**30),
        num_gpus=1 if gpus else 0,
        # An actor whose process dies (the OOM killer, a preempted node) is restarted and
        # its block retried on a live one, which rewrites the same shards (no duplicates);
        # a block that kills its actor every time stops the job after 4 tries instead of
        # looping (Ray Data's default retries without end).
        max_restarts=-1,
        max_task_retries=3,
    )
    left = np.zeros(int(shards.max()) + 1 if len(shards) else 0, dtype=bool)
    left[shards] = True  # the shards asked for (a flag each, not a table of them)
    asked = left.copy()
    watch = (output, lambda s: s < len(asked) and asked[s], on_landed) if on_landed else None
    with _reading(tally, on_tally, poll_s, watch) as reading:
        # No prefetching: with it, each shard's counts arrive only after the next block's.
        for counts in ds.iter_batches(batch_format="pyarrow", batch_size=None, prefetch_batches=0):
            reading.now()  # the block's documents are in the tally before its shard lines
            for shard, rows, tokens, failed in zip(
                *(counts.column(c).to_pylist() for c in RETURNS)
            ):
                expected = shard_rows(cfg.run.num_docs, cfg.run.shard_size, shard)
                if shard >= len(left) or not left[shard] or rows != expected:
                    raise RuntimeError(f"shard {shard} came back with {rows} rows, or twice")
                left[shard] = False
                on_shard(shard, rows, tokens, failed)
    if left.any():
        raise RuntimeError(f"shards {np.flatnonzero(left)[:20].tolist()} were never written")


def _actor_sizes(cfg, spec) -> tuple[bool, int, float, int]:
    """(a GPU per actor, CPU threads each, GiB of memory each, documents per call). An
    autoscaling cluster shows no GPU until a GPU worker is up: device cuda asks for one
    per actor anyway, which is what makes the autoscaler start them."""
    remote = Backend(spec).served
    gpus = not remote and (
        spec.device.startswith("cuda")
        or (spec.device == "auto" and ray.cluster_resources().get("GPU", 0) > 0)
    )
    cpus = int(ray.cluster_resources().get("CPU", os.cpu_count() or 1))
    threads = cfg.scale.threads_per_actor or max(1, cpus // cfg.scale.num_actors)
    memory_gb = cfg.scale.actor_memory_gb or (0.5 if remote else 3.0)
    batch_size = cfg.scale.gpu_batch_size if gpus else cfg.scale.batch_size
    return gpus, threads, memory_gb, batch_size


class _reading:
    """A driver thread that every poll_s seconds, while the pool works, reports the shards
    landed on disk (`watch`: output, which shards, on_landed) and passes the tally to
    on_tally, saying once per restart that a generation actor was restarted. A reading
    that fails (an actor restarting) is skipped, never the end of the thread."""

    def __init__(self, tally, on_tally, poll_s: float, watch=None):
        self.tally, self.on_tally, self.poll_s, self.watch = tally, on_tally, poll_s, watch
        self.seen, self.restarts, self.next_listing = set(), 0, 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.lock = threading.Lock()

    def __enter__(self):
        if self.tally is not None or self.watch is not None:
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)
        if exc[0] is None:
            self.next_listing = 0.0
            self.now()  # the final count, every shard landed

    def now(self, timeout_s: float = 10.0) -> None:
        with self.lock:
            self._landed()
            self._tally(timeout_s)

    def _landed(self) -> None:
        from synth.io.shards import landed_shards

        if self.watch is None:
            return
        output, wanted, on_landed = self.watch
        if time.monotonic() < self.next_listing:
            return
        started = time.monotonic()
        try:
            landed = landed_shards(output, wanted, self.seen)
        except OSError:
            return  # a store that did not answer: the next reading lists it again
        finally:  # a folder of a million shards is listed at most a tenth of the time
            self.next_listing = time.monotonic() + 9 * (time.monotonic() - started)
        for shard, summary in sorted(landed):
            self.seen.add(shard)
            on_landed(shard, summary["rows"], summary["tokens_generated"])

    def _tally(self, timeout_s: float) -> None:
        if self.tally is None:
            return
        try:
            documents, tokens, restarts = ray.get(self.tally.read.remote(), timeout=timeout_s)
        except ray.exceptions.RayError:
            return  # a busy head node or a restarting tally: show the next reading instead
        if restarts > self.restarts:
            self.restarts = restarts
            print(
                f"a generation actor was restarted ({restarts} so far: out of memory or a "
                "lost node); resuming, the shards written are kept",
                flush=True,
            )
        self.on_tally(documents, tokens)

    def _loop(self):
        while not self.stop.wait(self.poll_s):
            self.now(timeout_s=self.poll_s)
