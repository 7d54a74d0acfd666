"""`hrsynth push` to a local folder target: the repository holds the shards, DP samples,
manifest, metadata and the card as README.md, nothing else, and loads with `datasets`;
a folder that is not a finished output is one line."""

import json

import datasets

from jobs import push
from tests.synth.io.test_card_and_loading import output  # noqa: F401 (the fixture)


def test_push_to_a_folder_publishes_what_loads(output, tmp_path, capsys):  # noqa: F811
    (output / "_run.json").write_text("{}")  # the run file is not published
    target = tmp_path / "repo"
    result = push.run({"output": str(output), "repo_id": "team/tickets", "to_folder": str(target)})
    assert (
        sorted(p.name for p in target.iterdir())
        == sorted(result["files"])
        == [
            ".huggingface.yaml",
            "README.md",
            "_dp_samples.parquet",
            "_manifest.json",
            "part-00000.parquet",
            "part-00001.parquet",
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
    assert json.loads((target / "_manifest.json").read_text())["run_id"] == "abc"


def test_a_folder_without_a_manifest_or_a_bad_repo_id_is_one_line(tmp_path, capsys):
    assert push.main(["--output", str(tmp_path), "--repo-id", "team/x", "--to-folder", "t"]) == 2
    assert "no _manifest.json and _README.md there" in capsys.readouterr().err
    assert push.main(["--output", str(tmp_path), "--repo-id", "tickets"]) == 2
    assert "--repo-id must be OWNER/NAME, got 'tickets'" in capsys.readouterr().err
