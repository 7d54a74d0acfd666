# ruff: noqa: F811 (pytest fixtures imported from test_push)
"""Issue 64: nothing foreign is published or trained on, and a user's edited copy of a
shard is never deleted. `push` publishes a run's own shards only (refused in one line,
nothing published, when anything else lies among them); `evaluate` reads the run's own
shards and names what it left out; a rerun refuses, and keeps, a shard edited and saved
by pandas, a shard beyond the plan, and a folder named like a shard."""

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from jobs import evaluate, push
from synth import ConfigError
from synth.io.shards import finished_shards, write_shard
from synth.kinds import planned_shard_ids
from tests.jobs.test_push import RUN, output, shards  # noqa: F401 (fixtures)
from tests.synth.kinds.test_card_and_loading import row


def private_table(folder):
    """A private table a user keeps beside the output, under a shard's name."""
    pq.write_table(
        pa.table({"name": ["Ann Lee"], "ssn": ["123-45-6789"], "salary": [52000]}),
        folder / "data" / "part-00005.parquet",
    )


def another_runs_shard(folder):
    write_shard(str(folder), 2, [row(i) | {"id": f"x-{i:08d}", "run_id": "x"} for i in range(2)])


def edited_copy(folder):
    """The run's shard 1 read with pandas, edited and saved under its name."""
    frame = pd.read_parquet(folder / "data" / "part-00001.parquet")
    frame.loc[0, "text"] = frame.loc[0, "text"].replace("Lyon", "Paris")
    frame.to_parquet(folder / "data" / "part-00001.parquet")


def folder_named_like_a_shard(folder):
    (folder / "data" / "part-00003.parquet").mkdir()


FOREIGN = {
    "part-00005.parquet": private_table,
    "part-00002.parquet": another_runs_shard,
    "part-00001.parquet": edited_copy,
    "part-00003.parquet": folder_named_like_a_shard,
}


def test_push_publishes_the_run_s_own_shards(output, tmp_path):
    target = tmp_path / "repo"
    result = push.run({"output": str(output), "repo_id": "t/x", "to_folder": str(target)})
    assert [f for f in result["files"] if f.startswith("data/")] == [
        "data/part-00000.parquet",
        "data/part-00001.parquet",
    ]


@pytest.mark.parametrize("name", FOREIGN)
def test_push_refuses_anything_foreign_and_publishes_nothing(output, tmp_path, capsys, name):
    FOREIGN[name](output)
    target = tmp_path / "repo"
    argv = ["--output", str(output), "--repo-id", "t/x", "--to-folder", str(target)]
    assert push.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert name in err and "nothing was published" in err and len(err.splitlines()) == 1
    assert not target.exists()


def test_push_refuses_a_run_with_a_shard_missing(output, tmp_path, capsys):
    (output / "data" / "part-00001.parquet").unlink()
    argv = ["--output", str(output), "--repo-id", "t/x", "--to-folder", str(tmp_path / "r")]
    assert push.main(argv) == 2
    assert "part-00001.parquet of the run's 2 shards is missing" in capsys.readouterr().err


def test_evaluate_trains_on_the_run_s_own_shards_and_names_the_rest(output, capsys):
    for name in ("part-00005.parquet", "part-00002.parquet", "part-00003.parquet"):
        FOREIGN[name](output)
    extra = output / "data" / "extra.parquet"
    pq.write_table(pa.table({"text": ["not ours"], "label": ["x"]}), extra)
    own = ["data/part-00000.parquet", "data/part-00001.parquet"]
    assert evaluate._own_shards(str(output)) == own
    out = capsys.readouterr().out
    for name in ("part-00005.parquet", "part-00002.parquet", "part-00003.parquet", "extra.parquet"):
        assert f"left out of training: data/{name}" in out
    edited_copy(output)
    assert evaluate._own_shards(str(output)) == own[:1]


@pytest.mark.parametrize("name", ["part-00001.parquet", "part-00002.parquet", "part-00003.parquet"])
def test_a_rerun_refuses_and_keeps_what_it_cannot_prove_it_wrote(output, name):
    FOREIGN[name](output)
    data = output / "data"
    before = sorted(p.name for p in data.iterdir())
    kept = (data / name).read_bytes() if (data / name).is_file() else None
    with pytest.raises(ConfigError, match=name.replace(".", r"\.") + ".*left alone"):
        finished_shards(str(output), planned_shard_ids(RUN), "r")
    assert sorted(p.name for p in data.iterdir()) == before
    if kept is not None:
        assert (data / name).read_bytes() == kept


def pyarrow_edited(folder):
    """The run's shard 1 read with pyarrow, a column added, saved with its footer kept
    (pyarrow keeps the schema's metadata): issue 72."""
    table = pq.read_table(folder / "data" / "part-00001.parquet")
    table = table.append_column("reviewed", pa.array([True] * table.num_rows))
    pq.write_table(
        table.replace_schema_metadata(table.schema.metadata), folder / "data" / "part-00001.parquet"
    )


def test_a_shard_edited_with_pyarrow_keeps_its_footer_and_is_still_kept(output):
    """Issue 72: the footer survived the edit and the rerun took the shard for its own rows
    in an older contract, deleting it without a word. The recorded digest tells."""
    pyarrow_edited(output)
    kept = (output / "data" / "part-00001.parquet").read_bytes()
    assert b"hrsynth.run_id" in kept  # the footer did survive: only the bytes can tell
    with pytest.raises(ConfigError, match=r"part-00001\.parquet .*(changed after|left alone)"):
        finished_shards(str(output), planned_shard_ids(RUN), "r")
    assert (output / "data" / "part-00001.parquet").read_bytes() == kept


def test_a_shard_in_an_older_contract_with_its_recorded_bytes_is_rewritten(output):
    """What the record allows: this run's own file, bytes as written, in other columns."""
    from synth.io.shards import write_recorded

    table = pq.read_table(output / "data" / "part-00001.parquet")
    table = table.drop_columns(["generated_tokens"])
    write_recorded(
        str(output / "data" / "part-00001.parquet"),
        table.replace_schema_metadata(table.schema.metadata),
    )
    assert finished_shards(str(output), planned_shard_ids(RUN), "r") == {0}
    assert not (output / "data" / "part-00001.parquet").exists()
