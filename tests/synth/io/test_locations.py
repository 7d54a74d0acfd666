import os

import pytest

from synth import ConfigError
from synth.io.locations import canonical, check_apart, inside


def test_every_spelling_of_a_local_folder_is_one_place(tmp_path, monkeypatch):
    real = tmp_path / "out"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    spellings = [str(real), str(real) + "/", f"file://{real}", f"file://{link}/", str(link)]
    assert {canonical(s).rstrip("/") for s in spellings} == {str(real)}
    monkeypatch.chdir(tmp_path)
    assert canonical("out") == str(real)


def test_object_store_uris_lose_repeated_and_trailing_slashes():
    assert canonical("s3://bucket/a//b/") == "s3://bucket/a/b"
    assert inside("s3://bucket/a//b/key", "s3://bucket/a/b/")
    assert not inside("s3://bucket/a/bc", "s3://bucket/a/b")
    assert not inside("s3://other/a/b", "s3://bucket/a/b")


def test_a_key_inside_the_output_is_refused_however_it_is_written(tmp_path):
    out = tmp_path / "out"
    # ... or in the folder beside it where the job keeps its files (issue 94, EXP5)
    beside = (f"{out}.hrsynth/key", f"file://{out}.hrsynth", f"{out}.hrsynth")
    for key in (f"file://{out}/key", str(out / "key"), str(out), *beside):
        with pytest.raises(ConfigError, match="--output .* and --key-output .* one holds"):
            check_apart(output=f"file://{out}", key_output=key)
    with pytest.raises(ConfigError, match="--input .* and --output"):
        check_apart(input=str(tmp_path / "docs.jsonl"), output=str(tmp_path))
    check_apart(input=str(tmp_path / "docs.jsonl"), output=str(out), key_output=None)
    check_apart(output=str(out), key_output=str(tmp_path / "outside"))


@pytest.mark.parametrize("spelling", ["~/x/out/key", "x/../x/out", ".", "~", "file:///tmp/a"])
def test_the_writer_writes_where_the_check_looked(tmp_path, monkeypatch, spelling):
    """A quoted `~` reached the check expanded and the writer as a folder named `~` under
    the working directory (inside an output that was the working directory)."""
    from synth.io.locations import canonical
    from synth.io.storage import filesystem

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    _, written = filesystem(spelling)
    assert os.path.realpath(written) == canonical(spelling)
    assert "~" not in written
