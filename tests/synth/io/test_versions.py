"""Version folders, the latest pointer and retention, on a real local filesystem and a file:// URI."""

import json

import pytest

from synth import ConfigError
from synth.io import versions
from tests.kept import beside


def make_version(root, name, status):
    folder = root / name
    (folder / "data").mkdir(parents=True)
    beside(folder / "data", "_manifest.json", made=True).write_text("{}")
    if status:
        (folder / versions.STATUS).write_text(json.dumps({"status": status}))
    return folder


def test_version_names_sort_by_time():
    names = [versions.new_version(t) for t in (1.0, 1.5, 61.0, 1e9)]
    assert names == sorted(names) and len(set(names)) == 4
    assert names[0] == "v=19700101T000001.000Z"


@pytest.mark.parametrize("as_uri", [False, True])
def test_latest_pointer_moves_whole_and_resolves_to_the_data(tmp_path, as_uri):
    root = tmp_path.as_uri() if as_uri else str(tmp_path)
    assert versions.read_latest(root) is None and versions.resolve(root) == root
    make_version(tmp_path, "v=1", "succeeded")
    versions.move_latest(root, {"version": "v=1"})
    versions.move_latest(root, {"version": "v=1", "note": "again"})
    assert versions.read_latest(root) == {"version": "v=1", "note": "again"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json", "v=1"]  # no temp left
    assert versions.resolve(root) == root + "/v=1/data"
    assert versions.resolve(root + "/v=1/data") == root + "/v=1/data"


def test_a_pointer_to_something_else_is_refused(tmp_path):
    (tmp_path / "latest.json").write_text(json.dumps({"version": "../elsewhere"}))
    with pytest.raises(ConfigError, match="latest.json"):
        versions.resolve(str(tmp_path))


def test_retention_deletes_only_versions_older_than_the_newest_good_ones(tmp_path):
    for name, status in [
        ("v=1", "succeeded"),
        ("v=2", "failed"),
        ("v=3", "succeeded"),
        ("v=4", "failed"),
        ("v=5", "succeeded"),
        ("v=6", None),
    ]:
        make_version(tmp_path, name, status)
    (tmp_path / "history.parquet").write_text("kept")
    (tmp_path / "notes").mkdir()
    versions.move_latest(str(tmp_path), {"version": "v=5"})
    assert versions.prune(str(tmp_path), keep=3) == []
    assert versions.prune(str(tmp_path), keep=2) == ["v=1", "v=2"]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["history.parquet", "latest.json", "notes", "v=3", "v=4", "v=5", "v=6"]
    assert versions.prune(str(tmp_path), keep=1) == ["v=3", "v=4"]
    with pytest.raises(ConfigError, match="--keep"):
        versions.prune(str(tmp_path), keep=0)


def test_the_version_latest_names_is_never_deleted(tmp_path):
    for name in ("v=1", "v=2", "v=3"):
        make_version(tmp_path, name, "succeeded")
    versions.move_latest(str(tmp_path), {"version": "v=1"})  # e.g. rolled back by hand
    assert versions.prune(str(tmp_path), keep=1) == ["v=2"]


def test_a_damaged_latest_pointer_is_one_line(tmp_path):
    import pytest

    from synth import ConfigError
    from synth.io.versions import LATEST, resolve

    (tmp_path / LATEST).write_text("{")
    with pytest.raises(ConfigError, match=r"is damaged.*rerun `hrsynth refresh`"):
        resolve(str(tmp_path))
