"""The detector registry: damaged or dangling entries are one line naming the file and the
fix, read only when the default is needed, and registering is one writer at a time."""

import json

import pytest

from jobs import deidentify
from synth import ConfigError
from synth.deid.analyzer.detectors import check_ner_folder
from synth.deid.registry import default_detector, registry_dir


@pytest.fixture(autouse=True)
def own_registry(tmp_path, monkeypatch):
    """A registry of this test's own: the session's stays empty for the others."""
    monkeypatch.setenv("HRSYNTH_DETECTORS", str(tmp_path / "registry"))


@pytest.mark.parametrize("content", ["", "{", "[]", '{"version": "v1"}'])
def test_a_damaged_pointer_is_one_line(content):
    registry_dir().mkdir(parents=True, exist_ok=True)
    (registry_dir() / "default.json").write_text(content)
    with pytest.raises(ConfigError, match=r"default.json is damaged.*delete it"):
        default_detector()


def test_a_registered_detector_that_was_deleted_is_named_missing(tmp_path):
    registry_dir().mkdir(parents=True, exist_ok=True)
    gone = tmp_path / "gone"
    (registry_dir() / "default.json").write_text(json.dumps({"version": "v7", "path": str(gone)}))
    with pytest.raises(
        ConfigError, match=rf"detector v7 is missing: {gone} holds no detector.json"
    ):
        default_detector()


def test_presidio_alone_never_reads_the_registry(tmp_path, capsys):
    registry_dir().mkdir(parents=True, exist_ok=True)
    (registry_dir() / "default.json").write_text("{")
    (tmp_path / "in.jsonl").write_text('{"text": "a"}\n')
    argv = ["--input", str(tmp_path / "in.jsonl"), "--output", str(tmp_path / "o")]
    assert deidentify.main([*argv, "--detectors", "presidio", "--num-actors", "0"]) == 2
    assert "--num-actors must be >= 1" in capsys.readouterr().err  # got past the registry
    assert deidentify.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "default.json is damaged" in err and "\n" not in err


def test_broken_weights_are_one_line_before_ray(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ConfigError, match="no weights"):
        check_ner_folder(str(tmp_path))
    (tmp_path / "model.safetensors").write_bytes(b"\x10" + b"\x00" * 7 + b'{"a":')
    with pytest.raises(ConfigError, match="model.safetensors is damaged"):
        check_ner_folder(str(tmp_path))
    (tmp_path / "config.json").write_text("{")
    with pytest.raises(ConfigError, match="config.json is damaged"):
        check_ner_folder(str(tmp_path))


@pytest.mark.parametrize(
    "content", ["{", "[]", '{"kinds": ["a"]}', '{"kinds": 1, "vocabulary": 2}']
)
def test_a_damaged_kind_classifier_is_one_line_before_ray(tmp_path, content):
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "kinds.json").write_text(content)
    with pytest.raises(ConfigError, match="kinds.json is damaged"):
        check_ner_folder(str(tmp_path))
