"""Epoch checkpoints of a Ray Train run, so that a run stopped mid-way resumes.

A training run on 2 loaded CPU cores lasts tens of minutes; a worker that dies (Ray's
"A worker health check failed"), a Ctrl-C or a lost node used to cost it all. Rank 0
reports a checkpoint after every epoch but the last: the weights, the optimizer's state
and torch's random state, beside `resume.json` (the epoch, step and the run's
fingerprint). Ray Train keeps the latest in `OUTPUT/checkpoints/TASK/` and hands it back
to a retried worker group, and to the next run with the same output folder. A checkpoint
whose fingerprint differs (other data, labels, encoder or settings) is another training:
it is not resumed, and the run starts at epoch 1.
"""

import hashlib
import json
import sys
import tempfile
from pathlib import Path

import torch

STATE_FILE = "resume.json"
WEIGHTS_FILE = "state.pt"
# What decides the trained weights, apart from the epochs (a rerun with more epochs
# carries on): the keys of the training config hashed into the fingerprint.
FINGERPRINT_KEYS = ("encoder", "labels", "tags", "lr", "batch_size", "seed", "data_digest")


def fingerprint(task: str, config: dict, rows: int, num_workers: int) -> str:
    """Which training a checkpoint belongs to: the task, the data (rows, and the digest
    evaluate passes), the workers and the settings that shape the weights."""
    chosen = {key: config.get(key) for key in FINGERPRINT_KEYS}
    text = json.dumps([task, rows, num_workers, chosen], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def rows_digest(rows: list[dict]) -> str:
    """The training rows' text, label and spans, hashed in any order (evaluate's
    data_digest: Ray Data need not read a folder's rows in the same order twice)."""
    each = sorted(
        hashlib.sha256(
            json.dumps([r.get("text"), r.get("label"), r.get("entities")], default=str).encode()
        ).hexdigest()
        for r in rows
    )
    return hashlib.sha256("".join(each).encode()).hexdigest()[:16]


def resume(model: torch.nn.Module, config: dict) -> tuple[dict, dict | None]:
    """(where training stands, the optimizer state to load): the last epoch checkpoint
    of this very training loaded into `model` (unwrapped, before prepare_model), or
    epoch 0 and None when there is none."""
    import ray.train

    start = {"epoch": 0, "step": 0}
    checkpoint = ray.train.get_checkpoint()
    if checkpoint is None:
        return start, None
    with checkpoint.as_directory() as folder:
        state_path = Path(folder, STATE_FILE)
        if not state_path.is_file():
            return start, None  # a finished run's checkpoint (predictions): train anew
        try:
            state = json.loads(state_path.read_text())
            if not isinstance(state, dict):
                raise TypeError(f"{STATE_FILE} is not an object")
            if state.get("fingerprint") != config["fingerprint"]:
                return start, None
            saved = torch.load(Path(folder, WEIGHTS_FILE), map_location="cpu", weights_only=True)
            model.load_state_dict(saved["model"])
            torch.set_rng_state(saved["rng"])
        except Exception as e:  # noqa: BLE001 (a file cut short fails in json, pickle or zip)
            # A rerun cannot get past a checkpoint that cannot be read: it is skipped, once,
            # with a line saying so, and the next epoch's checkpoint replaces it (issue 72).
            # The worker's own stderr reaches Ray's log, not always the console: the
            # line travels back in the metrics too, for the driver to print (issue 84).
            warning = unreadable_warning(checkpoint.path, e)
            print(warning, file=sys.stderr, flush=True)
            return {**start, "unreadable": warning}, None
    return state, saved["optimizer"]


def unreadable_warning(path, error: Exception) -> str:
    return (
        f"warning: the checkpoint in {path} cannot be read "
        f"({type(error).__name__}: damaged or cut short); training starts again at epoch 1"
    )


def unwrapped(model):
    """The model itself, out of the DistributedDataParallel wrapper Ray Train puts
    around it on several workers."""
    return model.module if hasattr(model, "module") else model


def report_epoch(model, optimizer, config: dict, epoch: int, step: int) -> None:
    """Every worker reports (Ray Train's report is collective); rank 0 with the
    checkpoint of the epoch just ended."""
    import ray.train

    metrics = {"epoch": epoch, "step": step}
    if ray.train.get_context().get_world_rank() != 0:
        ray.train.report(metrics)
        return
    bare = unwrapped(model)
    state = {"epoch": epoch, "step": step, "fingerprint": config["fingerprint"]}
    with tempfile.TemporaryDirectory() as folder:
        saved = {
            "model": {k: v.detach().cpu() for k, v in bare.state_dict().items()},
            "optimizer": optimizer.state_dict(),
            "rng": torch.get_rng_state(),
        }
        torch.save(saved, Path(folder, WEIGHTS_FILE))
        Path(folder, STATE_FILE).write_text(json.dumps(state))
        ray.train.report(metrics, checkpoint=ray.train.Checkpoint.from_directory(folder))
