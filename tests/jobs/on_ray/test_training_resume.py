"""A training run killed mid-epoch resumes from its last epoch checkpoint (issue 64).

The run is a real Ray Train fit of the BIO tagger (MiniLM, the 40 development tickets,
3 epochs of 5 steps) in a subprocess with its own local Ray, killed (SIGKILL, its whole
process group) once epoch 1's checkpoint is on disk. A second fit on the same output
folder trains only the epochs left, and its weights equal those of a run never
interrupted: the checkpoint holds the weights, the optimizer and torch's random state.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
EPOCHS = 3

FIT = """
import json, sys
from pathlib import Path
import ray
sys.path.insert(0, {root!r})
from tests.jobs.on_ray.test_training_resume import rows_and_config
from jobs.on_ray import training
ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
rows, config = rows_and_config()
training.fit("bio_ner", ray.data.from_items(rows), config, Path({out!r}), 1, False)
"""


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
    return [
        json.loads(p.read_text())
        for p in (out / "checkpoints" / "bio_ner").glob("checkpoint_*/resume.json")
    ]


def _kill_after_first_epoch(out: Path) -> int:
    """Start the fit in a subprocess; kill it as soon as an epoch checkpoint is written.
    Returns the epoch that checkpoint holds."""
    script = FIT.format(root=str(ROOT), out=str(out))
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 600
        while not _epoch_checkpoints(out):
            assert process.poll() is None, "the training subprocess ended before a checkpoint"
            assert time.monotonic() < deadline, "no epoch checkpoint within 600 s"
            time.sleep(0.1)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return max(state["epoch"] for state in _epoch_checkpoints(out))


def _weights(out: Path) -> dict:
    from safetensors.torch import load_file

    return load_file(str(out / "models" / "bio_ner" / "model.safetensors"))


def test_a_run_killed_mid_epoch_resumes_from_its_checkpoint(tmp_path, capsys):
    import ray

    from jobs.on_ray import training

    killed = tmp_path / "killed"
    checkpointed = _kill_after_first_epoch(killed)
    assert 1 <= checkpointed < EPOCHS

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        rows, config = rows_and_config()
        resumed, _ = training.fit("bio_ner", ray.data.from_items(rows), config, killed, 1, False)
        assert resumed["resumed_after_epoch"] == checkpointed
        assert resumed["examples"] == (EPOCHS - checkpointed) * len(rows)
        out = capsys.readouterr().out
        assert f"bio_ner: resumed after epoch {checkpointed} of {EPOCHS}" in out
        resumed_weights = _weights(killed)

        whole = tmp_path / "whole"
        uninterrupted, _ = training.fit(
            "bio_ner", ray.data.from_items(rows), config, whole, 1, False
        )
        assert uninterrupted["resumed_after_epoch"] == 0
        assert uninterrupted["examples"] == EPOCHS * len(rows)
        whole_weights = _weights(whole)
        assert resumed_weights.keys() == whole_weights.keys()
        for name, tensor in whole_weights.items():
            torch.testing.assert_close(resumed_weights[name], tensor, rtol=1e-5, atol=1e-6)

        # another training (other settings) in the same folder does not resume it
        other, _ = training.fit(
            "bio_ner", ray.data.from_items(rows), {**config, "lr": 1e-4}, killed, 1, False
        )
        assert other["resumed_after_epoch"] == 0
    finally:
        ray.shutdown()
