"""Ray Train edge of the evaluation job: encoder fine-tuning as TorchTrainer runs.

Each worker reads its shard of the synthetic Parquet through Ray Data, fine-tunes the
encoder (DDP across workers, GPU per worker when the cluster has GPUs) and reports
examples/s; rank 0 then predicts the test set and saves predictions and the fine-tuned
weights as the run's checkpoint in the output folder. Everything task-specific (which
model head, how a batch becomes labels, how predictions are scored) is in eval/.
"""

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import torch

from eval import cls_entity
from jobs.on_ray import train_checkpoints
from synth import RunFailed, encoder

PROGRESS_EVERY_S = 30.0  # a training line at least this often (the driver's clock)
# A worker group lost mid-run (Ray's "A worker health check failed") is started again
# this many times, from the last epoch's checkpoint, before the run fails.
TRAIN_RETRIES = 2
# Ray Train's waits, sized for 2 cores under a load of 10-60 (its defaults: 60 s for the
# workers to start, 600 s for a hung health check); a value the user set is kept.
LOADED_MACHINE_TIMEOUTS_S = {
    "RAY_TRAIN_WORKER_GROUP_START_TIMEOUT_S": 600,
    "RAY_TRAIN_WORKER_HEALTH_CHECK_TIMEOUT_S": 1800,
}


class TrainProgress:
    """Where rank 0 leaves its epoch, step and loss (a Ray actor of no CPU, made by fit),
    for the driver to print at a steady cadence: a training run on 2 CPU cores lasts
    tens of minutes, and Ray Train says nothing meanwhile."""

    def __init__(self):
        self.state = None

    def update(self, state: dict) -> None:
        self.state = state

    def read(self) -> dict | None:
        return self.state


def progress_line(task: str, state: dict, total_steps: int) -> str:
    """`bio_ner: epoch 2/3, step 410/750, loss 0.214, 12.5 examples/s, ETA 00:05:12`."""
    from jobs.progress import eta_text

    step, elapsed = state["step"], state["elapsed_s"]
    here = state.get("steps_here", step)  # a resumed run's rate is its own steps'
    left = (total_steps - step) * elapsed / here if here and total_steps >= step else None
    return (
        f"{task}: epoch {state['epoch']}/{state['epochs']}, step {step}/{total_steps}, "
        f"loss {state['loss']:.3f}, {state['seen'] / max(elapsed, 1e-9):.1f} examples/s, "
        f"ETA {eta_text(left)}"
    )


def _threads(config: dict) -> None:
    torch.manual_seed(config["seed"])
    torch.set_num_threads(config["cpus_per_worker"])


def _batch_targets(task: str, tokenizer, batch, enc, config) -> torch.Tensor:
    if task in ("classify", "cls_entity"):
        index = {label: i for i, label in enumerate(config["labels"])}
        return torch.tensor([index[label] for label in batch["label"]])
    tag_index = {tag: i for i, tag in enumerate(config["tags"])}
    rows = []
    for row, (text, entities) in enumerate(zip(batch["text"], batch["entities"])):
        spans = [(e["start"], e["end"], e["label"]) for e in entities]
        words, tags = encoder.word_tags(tokenizer, text, spans)
        tags = [t if t in tag_index else "O" for t in tags]
        rows.append(encoder.piece_labels(enc, row, words, tags, tag_index))
    return torch.tensor(rows)


def _loss(task: str, model, inputs: dict, targets: torch.Tensor, batch, config: dict):
    """The batch's loss; a BIO model with labels per kind (config `kind_tags`) is trained
    on each row's softmax over the tags its kind allows (synth.deid.analyzer.kind_tags)."""
    if task == "bio_ner" and config.get("kind_tags"):
        logits = model(**inputs).logits
        return encoder.masked_token_loss(logits, targets, _allowed(list(batch["text"]), config))
    output = model(**inputs, labels=targets.to(next(iter(inputs.values())).device))
    return output[0] if isinstance(output, tuple) else output.loss


def _allowed(texts: list[str], config: dict) -> torch.Tensor:
    """Rows × tags: which tags each text's kind allows."""
    from synth.deid.analyzer.kind_tags import allowed_tags, document_kind

    tags, by_kind = config["tags"], config["kind_tags"]
    return torch.tensor([allowed_tags(tags, by_kind, document_kind(t)) for t in texts])


def _new_model(task: str, config: dict):
    """The task's model on the encoder, before training (or its checkpoint) sets it."""
    if task == "classify":
        return encoder.sequence_classifier(config["encoder"], len(config["labels"]))
    if task == "cls_entity":
        return cls_entity.CandidateClassifier(
            encoder.base_model(config["encoder"]), len(config["labels"])
        )
    return encoder.token_classifier(config["encoder"], len(config["tags"]))


def _predictions(task: str, model, tokenizer, config: dict) -> list:
    """The trained model's answers on the test texts (candidates, for cls_entity)."""
    texts = config.get("test_texts", [])
    if task == "classify":
        return [config["labels"][i] for i in encoder.predict_classes(model, tokenizer, texts)]
    if task == "cls_entity":
        found = cls_entity.predict_candidates(model, tokenizer, config["test_candidates"])
        return [config["labels"][i] for i in found]
    allowed = _allowed(texts, config).tolist() if config.get("kind_tags") and texts else None
    return encoder.predict_word_tags(model, tokenizer, texts, config["tags"], allowed=allowed)


def train_loop(config: dict) -> None:
    """One worker: config holds task, encoder, labels or tags, epochs, lr, test texts."""
    import ray.train
    import ray.train.torch

    _threads(config)
    task = config["task"]
    tokenizer = encoder.load_tokenizer(config["encoder"])
    model = _new_model(task, config)
    resumed, optimizer_state = train_checkpoints.resume(model, config)
    model = ray.train.torch.prepare_model(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
    if optimizer_state is not None:
        optimizer.load_state_dict(optimizer_state)
    shard = ray.train.get_dataset_shard("train")
    seen, started, step, told = 0, time.perf_counter(), resumed["step"], 0.0
    progress = config.get("progress") if ray.train.get_context().get_world_rank() == 0 else None
    tell_every = min(2.0, config.get("progress_every_s", PROGRESS_EVERY_S))
    model.train()
    for epoch in range(resumed["epoch"] + 1, config["epochs"] + 1):
        for batch in shard.iter_batches(
            batch_size=config["batch_size"],
            batch_format="numpy",
            local_shuffle_buffer_size=256,
            local_shuffle_seed=config["seed"],
        ):
            enc = encoder.encode(tokenizer, list(batch["text"]))
            targets = _batch_targets(task, tokenizer, batch, enc, config)
            offsets = enc.pop("offset_mapping")
            if task == "cls_entity":
                enc["span_mask"] = cls_entity.span_mask(offsets, batch["start"], batch["end"])
            device = ray.train.torch.get_device()
            loss = _loss(
                task, model, {k: v.to(device) for k, v in enc.items()}, targets, batch, config
            )
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            seen += len(batch["text"])
            step += 1
            if progress is not None and time.perf_counter() - told >= tell_every:
                told = time.perf_counter()
                progress.update.remote(
                    {
                        "epoch": epoch,
                        "epochs": config["epochs"],
                        "step": step,
                        "steps_here": step - resumed["step"],
                        "loss": float(loss),
                        "seen": seen,
                        "elapsed_s": told - started,
                    }
                )
        if epoch < config["epochs"]:
            train_checkpoints.report_epoch(model, optimizer, config, epoch, step)
    seconds = time.perf_counter() - started
    workers = ray.train.get_context().get_world_size()
    # Shards are split equally across workers, so rank 0's rate times the workers is the
    # job's rate.
    metrics = {
        "examples": seen,
        "train_s": seconds,
        "examples_per_s": seen / max(seconds, 1e-9),
        "workers": workers,
        "resumed_after_epoch": resumed["epoch"],
        "unreadable_checkpoint": resumed.get("unreadable", ""),
        "examples_per_s_all_workers": seen * workers / max(seconds, 1e-9),
    }
    if ray.train.get_context().get_world_rank() != 0:
        ray.train.report(metrics)
        return
    bare = train_checkpoints.unwrapped(model)
    if task == "bio_ner":  # the tag names travel with the weights: deidentify reads them
        bare.config.id2label = dict(enumerate(config["tags"]))
        bare.config.label2id = {tag: i for i, tag in enumerate(config["tags"])}
        if config.get("kind_tags"):
            bare.config.kind_tags = config["kind_tags"]
    bare = bare.to("cpu")
    _report_model(bare, tokenizer, _predictions(task, bare, tokenizer, config), metrics)


def _report_model(model, tokenizer, predicted: list, metrics: dict) -> None:
    """Rank 0's last report: the trained model, its tokenizer and its test predictions,
    as the run's final checkpoint (fit reads it back on the driver)."""
    import ray.train

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "predictions.json").write_text(json.dumps(predicted))
        if hasattr(model, "save_pretrained"):
            model.save_pretrained(folder)
        else:
            torch.save(model.state_dict(), Path(folder, "model.pt"))
        tokenizer.save_pretrained(folder)
        ray.train.report(metrics, checkpoint=ray.train.Checkpoint.from_directory(folder))


def fit(
    task: str, dataset, config: dict, output: Path, num_workers: int, use_gpu: bool
) -> tuple[dict, list]:
    """Run one TorchTrainer; returns (rank-0 metrics, test-set predictions)."""
    import threading

    import ray
    from ray.train import CheckpointConfig, FailureConfig, RunConfig, ScalingConfig
    from ray.train.torch import TorchTrainer

    total = ray.cluster_resources().get("CPU", 1)
    # Ray Data may only use the CPUs that training leaves free: keep one for it, or the
    # workers wait forever for their shards. Torch threads are set apart from the
    # reservation (a worker may use more threads than the CPUs it reserves).
    reserved = max(total - 1, 0.5) / num_workers
    progress = ray.remote(num_cpus=0)(TrainProgress).remote()
    config = {**config, "task": task, "cpus_per_worker": max(1, int(total) // num_workers)}
    config["progress"] = progress
    rows = dataset.count()
    config["fingerprint"] = train_checkpoints.fingerprint(task, config, rows, num_workers)
    steps = config["epochs"] * -(-rows // (config["batch_size"] * num_workers))
    for name, seconds in LOADED_MACHINE_TIMEOUTS_S.items():
        os.environ.setdefault(name, str(seconds))  # the user's own value wins
    storage = Path(output, "checkpoints").resolve()
    trainer = TorchTrainer(
        train_loop,
        train_loop_config=config,
        scaling_config=ScalingConfig(
            num_workers=num_workers, use_gpu=use_gpu, resources_per_worker={"CPU": reserved}
        ),
        run_config=RunConfig(
            name=task,
            storage_path=str(storage),
            failure_config=FailureConfig(max_failures=TRAIN_RETRIES),
            checkpoint_config=CheckpointConfig(num_to_keep=1),
        ),
        datasets={"train": dataset},
    )
    print(f"{task}: training on {rows} examples, {steps} steps ({config['epochs']} epochs)")
    done = threading.Event()
    reporter = threading.Thread(
        target=_report, args=(task, progress, steps, done, config), daemon=True
    )
    reporter.start()
    try:
        result = trainer.fit()
    except ray.train.TrainingFailedError as error:
        if _user_error(error):
            raise  # a bug in the training code: its traceback is what to report
        raise RunFailed(
            f"{task}: the training workers failed on each of {TRAIN_RETRIES + 1} tries "
            f"({_first_line(error)}); the "
            f"epochs it finished are checkpointed in {storage / task}: rerun the same "
            "command to resume after the last of them"
        ) from None
    finally:
        done.set()
        reporter.join(timeout=10)
    metrics = dict(result.metrics)
    if metrics.pop("unreadable_checkpoint", ""):
        print(result.metrics["unreadable_checkpoint"], file=sys.stderr, flush=True)
    after = metrics.get("resumed_after_epoch", 0)
    if after:
        print(f"{task}: resumed after epoch {after} of {config['epochs']} from its checkpoint")
    with result.checkpoint.as_directory() as folder:
        predicted = json.loads(Path(folder, "predictions.json").read_text())
        # A stable path for the fine-tuned model (`deidentify --ner-model OUT/models/bio_ner`)
        shutil.copytree(folder, Path(output, "models", task), dirs_exist_ok=True)
    return metrics, predicted


def _user_error(error: BaseException) -> bool:
    """Whether every worker failed in the training code itself (Ray Train wraps it with
    its traceback), as opposed to a worker lost, hung or not started."""
    failures = getattr(error, "worker_failures", None) or {}
    return bool(failures) and all(
        type(f).__name__ == "UserExceptionWithTraceback" for f in failures.values()
    )


def _first_line(error: BaseException) -> str:
    lines = [line for line in str(error).splitlines() if line.strip()]
    detail = next((line for line in lines[1:] if "Worker info" not in line), "")
    return (detail or (lines[0] if lines else type(error).__name__)).strip()[:200]


def _report(task: str, progress, steps: int, done, config: dict) -> None:
    """Print rank 0's latest state every PROGRESS_EVERY_S seconds while training runs."""
    import ray

    every = config.get("progress_every_s", PROGRESS_EVERY_S)
    last = None
    while not done.wait(every):
        try:
            state = ray.get(progress.read.remote(), timeout=10)
        except ray.exceptions.RayError:
            continue
        if state and state != last:
            print(progress_line(task, state, steps), flush=True)
            last = state


def use_gpu(requested: str) -> bool:
    """'auto' takes GPUs when the cluster has them."""
    import ray

    if requested == "auto":
        return ray.cluster_resources().get("GPU", 0) > 0
    return requested == "yes"


os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
