"""A training run killed mid-epoch resumes from its last epoch checkpoint (issue 64).

Real Ray Train fits of the BIO tagger (MiniLM, the 40 development tickets, 3 epochs of 5
steps) whose worker process is killed (SIGKILL: what Ray reports as "A worker health
check failed") once epoch 1's checkpoint is registered. Ray Train starts the worker
group again from the checkpoint, which trains only the epochs left, to the weights of a
run never interrupted (the checkpoint holds the weights, the optimizer and torch's
random state). With no retry left the run ends in one line, and a rerun on the same
output folder resumes.
"""

import json
import threading
import time
from pathlib import Path

import pytest
import torch

EPOCHS = 3


def rows_and_config() -> tuple[list[dict], dict]:
    from eval.testset import DEV_TICKETS, load_testset
    from synth.encoder import resolve_encoder
    from synth.kinds.tickets.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    dev = load_testset(DEV_TICKETS, sorted(taxonomy))
    entities = sorted({v for s in taxonomy.values() for v in s.variables})
    rows = [
        {
            "text": d.text,
            "label": d.label,
            "entities": [{"start": s, "end": e, "label": lab} for s, e, lab in d.entities],
        }
        for d in dev.docs
    ]
    config = {
        "encoder": resolve_encoder(None),
        "tags": ["O"] + [f"{p}-{e}" for e in entities for p in "BI"],
        "epochs": EPOCHS,
        "lr": 5e-5,
        "batch_size": 8,
        "seed": 0,
        "test_texts": [],
    }
    return rows, config


def _epoch_checkpoints(out: Path) -> list[dict]:
    """The epoch states of the checkpoints Ray Train has registered (its snapshot names
    them): a checkpoint's files are on disk a moment before it is registered, and one
    killed in between is rightly not resumed."""
    folder = out / "checkpoints" / "bio_ner"
    try:
        snapshot = json.loads((folder / "checkpoint_manager_snapshot.json").read_text())
    except (OSError, ValueError):
        return []
    names = [r["checkpoint_dir_name"] for r in snapshot.get("checkpoint_results", [])]
    states = [folder / name / "resume.json" for name in names]
    return [json.loads(state.read_text()) for state in states if state.is_file()]


def _kill_worker_after_first_epoch(out: Path, killed: list) -> None:
    """SIGKILL the Ray Train worker process once epoch 1's checkpoint is registered."""
    import psutil

    deadline = time.monotonic() + 600
    while not _epoch_checkpoints(out) and time.monotonic() < deadline:
        time.sleep(0.1)
    for process in psutil.process_iter(["cmdline"]):
        if "RayTrainWorker" in " ".join(process.info["cmdline"] or []):
            process.kill()
            killed.append(process.pid)


def _fit_killed(ray, rows, config, out: Path) -> dict:
    """A fit whose worker is killed after epoch 1; its metrics."""
    from jobs.on_ray import training

    killed = []
    killer = threading.Thread(target=_kill_worker_after_first_epoch, args=(out, killed))
    killer.start()
    try:
        return training.fit("bio_ner", ray.data.from_items(rows), config, out, 1, False)[0]
    finally:
        killer.join()
        assert killed, "no Ray Train worker process found to kill"


def _weights(out: Path) -> dict:
    from safetensors.torch import load_file

    return load_file(str(out / "models" / "bio_ner" / "model.safetensors"))


def test_a_worker_killed_mid_epoch_is_started_again_from_the_checkpoint(ray_local, tmp_path):
    from jobs.on_ray import training

    rows, config = rows_and_config()
    metrics = _fit_killed(ray_local, rows, config, tmp_path / "lost")
    assert 1 <= metrics["resumed_after_epoch"] < EPOCHS
    assert metrics["examples"] == (EPOCHS - metrics["resumed_after_epoch"]) * len(rows)
    whole = tmp_path / "whole"
    uninterrupted, _ = training.fit(
        "bio_ner", ray_local.data.from_items(rows), config, whole, 1, False
    )
    assert uninterrupted["resumed_after_epoch"] == 0
    assert uninterrupted["examples"] == EPOCHS * len(rows)
    resumed_weights, whole_weights = _weights(tmp_path / "lost"), _weights(whole)
    assert resumed_weights.keys() == whole_weights.keys()
    for name, tensor in whole_weights.items():
        torch.testing.assert_close(resumed_weights[name], tensor, rtol=1e-5, atol=1e-6)


def test_a_worker_lost_on_every_try_is_one_line_and_the_rerun_resumes(
    ray_local, tmp_path, monkeypatch, capsys
):
    from jobs.on_ray import training
    from synth import RunFailed

    monkeypatch.setattr(training, "TRAIN_RETRIES", 0)
    rows, config = rows_and_config()
    with pytest.raises(RunFailed) as failed:
        _fit_killed(ray_local, rows, config, tmp_path)
    line = str(failed.value)
    assert "\n" not in line and line.startswith("bio_ner: the training workers failed on each")
    assert "checkpointed in" in line and "rerun the same command to resume" in line
    monkeypatch.setattr(training, "TRAIN_RETRIES", 2)
    capsys.readouterr()
    metrics, _ = training.fit(
        "bio_ner", ray_local.data.from_items(rows), config, tmp_path, 1, False
    )
    assert metrics["resumed_after_epoch"] >= 1
    assert f"bio_ner: resumed after epoch {metrics['resumed_after_epoch']} of 3" in (
        capsys.readouterr().out
    )


def test_another_training_has_another_fingerprint():
    """A checkpoint is resumed only by the training it belongs to (cheap: no Ray)."""
    from jobs.on_ray.train_checkpoints import fingerprint, rows_digest

    rows, config = rows_and_config()
    config = {**config, "data_digest": rows_digest(rows)}
    same = fingerprint("bio_ner", config, 40, 1)
    assert rows_digest(rows[::-1]) == config["data_digest"]  # the order read does not matter
    assert same == fingerprint("bio_ner", {**config, "epochs": 5}, 40, 1)  # more epochs go on
    others = [
        fingerprint("bio_ner", {**config, "lr": 1e-4}, 40, 1),
        fingerprint("bio_ner", {**config, "seed": 1}, 40, 1),
        fingerprint("bio_ner", {**config, "data_digest": rows_digest(rows[1:])}, 40, 1),
        fingerprint("bio_ner", config, 41, 1),
        fingerprint("bio_ner", config, 40, 2),
        fingerprint("classify", config, 40, 1),
    ]
    assert same not in others and len(set(others)) == len(others)


@pytest.mark.parametrize("damage", ["resume.json", "state.pt"])
def test_a_checkpoint_that_cannot_be_read_is_skipped_in_one_line(
    tmp_path, monkeypatch, capsys, damage
):
    """Issue 72: a `resume.json` cut short failed all three tries with an empty error
    snippet and "rerun the same command to resume", and every rerun failed the same way.
    Now it is skipped with one warning line and training starts at epoch 1."""
    import ray.train

    from jobs.on_ray.train_checkpoints import STATE_FILE, WEIGHTS_FILE, resume

    model = torch.nn.Linear(2, 2)
    saved = {"model": model.state_dict(), "optimizer": {}, "rng": torch.get_rng_state()}
    torch.save(saved, tmp_path / WEIGHTS_FILE)
    state = json.dumps({"epoch": 2, "step": 10, "fingerprint": "f"})
    (tmp_path / STATE_FILE).write_text(state)
    checkpoint = ray.train.Checkpoint.from_directory(str(tmp_path))
    monkeypatch.setattr(ray.train, "get_checkpoint", lambda: checkpoint)
    assert resume(torch.nn.Linear(2, 2), {"fingerprint": "f"})[0]["epoch"] == 2  # readable
    path = tmp_path / damage
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    capsys.readouterr()
    state, optimizer = resume(torch.nn.Linear(2, 2), {"fingerprint": "f"})
    assert (state["epoch"], state["step"], optimizer) == (0, 0, None)
    err = capsys.readouterr().err.strip()
    assert state["unreadable"] == err  # the line the driver prints
    assert err.startswith("warning: the checkpoint in ") and "cannot be read" in err
    assert "starts again at epoch 1" in err and "\n" not in err


def test_a_damaged_checkpoint_is_skipped_with_the_warning_on_the_console(
    ray_local, tmp_path, monkeypatch, capsys
):
    """Issue 84: the rerun over a damaged checkpoint trained from epoch 1, but its warning
    was printed inside the Ray Train worker, where the console never showed it. The
    driver prints it now, once."""
    from jobs.on_ray import training
    from synth import RunFailed

    monkeypatch.setattr(training, "TRAIN_RETRIES", 0)
    rows, config = rows_and_config()
    with pytest.raises(RunFailed):
        _fit_killed(ray_local, rows, config, tmp_path)
    states = list((tmp_path / "checkpoints" / "bio_ner").glob("*/resume.json"))
    assert states
    for state in states:  # cut short, as a full disk leaves it
        state.write_text(state.read_text()[:7])
    capsys.readouterr()
    metrics, _ = training.fit(
        "bio_ner", ray_local.data.from_items(rows), config, tmp_path, 1, False
    )
    assert metrics["resumed_after_epoch"] == 0 and "unreadable_checkpoint" not in metrics
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if "cannot be read" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: the checkpoint in ")
    assert "starts again at epoch 1" in warnings[0]
