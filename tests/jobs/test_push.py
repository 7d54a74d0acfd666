"""`hrsynth push` to a local folder target: the repository holds the shards, DP samples,
manifest, metadata and the card as README.md, nothing else, and loads with `datasets`;
a folder that is not a finished output is one line."""

import json

import datasets
import pytest

from jobs import push
from tests.kept import beside
from tests.synth.kinds.test_card_and_loading import output as shards  # noqa: F401 (a fixture)

RUN = {"fingerprint": "f" * 64, "run_id": "r", "config": {"num_docs": 5, "shard_size": 3}}


@pytest.fixture
def output(shards):  # noqa: F811
    """A finished generate output: its shards, manifest, card and run record."""
    beside(shards, "_run.json", made=True).write_text(json.dumps(RUN))  # not published
    return shards


def test_push_to_a_folder_publishes_what_loads(output, tmp_path, capsys):
    target = tmp_path / "repo"
    result = push.run({"output": str(output), "repo_id": "team/tickets", "to_folder": str(target)})
    assert (
        sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
        == sorted(result["files"])
        == [
            ".huggingface.yaml",
            "README.md",
            "_dp_samples.parquet",
            "_manifest.json",
            "data/part-00000.parquet",
            "data/part-00001.parquet",
        ]
    )
    assert (
        "personal-data audit: 1 document(s) with findings {'EMAIL': 1}" in capsys.readouterr().out
    )
    assert "config_name: default" in (target / "README.md").read_text()
    assert (
        datasets.load_dataset(str(target), split="train", cache_dir=str(tmp_path / "hf")).num_rows
        == 5
    )
    # the repository is the Hub's layout: the manifest at its top, beside data/
    assert json.loads((target / "_manifest.json").read_text())["run_id"] == "abc"


def test_a_folder_without_a_manifest_or_a_bad_repo_id_is_one_line(tmp_path, capsys):
    assert push.main(["--output", str(tmp_path), "--repo-id", "team/x", "--to-folder", "t"]) == 2
    assert "no _manifest.json and _README.md there" in capsys.readouterr().err
    assert push.main(["--output", str(tmp_path), "--repo-id", "tickets"]) == 2
    assert "--repo-id must be OWNER/NAME, got 'tickets'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "offline, token, flags, message",
    [
        ("1", "hf_x", [], "HF_HUB_OFFLINE is set"),
        ("", None, [], "the variable HRSYNTH_TOKEN is not set"),
        ("", "hf_x", ["--endpoint", "http://127.0.0.1:9"], "http://127.0.0.1:9 cannot be reached"),
    ],
)
def test_what_would_fail_the_upload_is_one_line_before_it(
    output,
    capsys,
    monkeypatch,
    offline,
    token,
    flags,
    message,
):
    """Offline mode (make demo sets it), an unset token variable (requests went out with no
    token) and an endpoint nobody answers ended in 34-71-line traces."""
    monkeypatch.setenv("HF_HUB_OFFLINE", offline)
    if token:
        monkeypatch.setenv("HRSYNTH_TOKEN", token)
    else:
        monkeypatch.delenv("HRSYNTH_TOKEN", raising=False)
    argv = ["--output", str(output), "--repo-id", "team/tickets", "--token-env", "HRSYNTH_TOKEN"]
    assert push.main(argv + flags) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err, err


def test_pushing_into_the_output_folder_itself_is_refused(output, capsys):
    """Its README.md made the folder unreadable for pandas and pyarrow."""
    argv = ["--output", str(output), "--repo-id", "team/t", "--to-folder", str(output)]
    assert push.main(argv) == 2
    assert "one holds the other" in capsys.readouterr().err
    assert not (output / "README.md").exists()


def test_a_hub_push_is_one_commit_of_the_files_as_they_lie(output, monkeypatch):
    """One CommitOperationAdd per published file, read from the output folder itself (no
    staging copy), the card as README.md; the Hub's API recorded instead of called."""
    import huggingface_hub

    calls = {}

    class RecordingApi:
        def __init__(self, endpoint=None, token=None):
            calls["token"] = token

        def create_repo(self, repo_id, **kwargs):
            calls["repo"] = (repo_id, kwargs)

        def create_commit(self, repo_id, operations, **kwargs):
            calls["operations"] = {op.path_in_repo: op.path_or_fileobj for op in operations}
            return "commit-url"

    monkeypatch.setattr(huggingface_hub, "HfApi", RecordingApi)
    monkeypatch.setattr(push, "check_hub", lambda endpoint, token_env: None)
    monkeypatch.setenv("HRSYNTH_TOKEN", "t")
    result = push.run({"output": str(output), "repo_id": "team/t", "token_env": "HRSYNTH_TOKEN"})
    assert result["where"] == "commit-url" and calls["token"] == "t"
    assert calls["repo"] == ("team/t", {"repo_type": "dataset", "private": True, "exist_ok": True})
    assert calls["operations"]["README.md"] == str(beside(output, "_README.md"))
    shard = "data/part-00001.parquet"
    assert calls["operations"][shard] == str(output / shard)
    assert sorted(calls["operations"]) == sorted(result["files"])
    assert len(result["files"]) == 6
