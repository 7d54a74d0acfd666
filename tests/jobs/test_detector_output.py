"""`detector build` replaces OUTPUT/model only when it holds a detector it built."""

import pytest

from jobs import detector
from synth import ConfigError


def test_a_model_folder_holding_a_users_files_is_refused_before_any_work(tmp_path):
    mine = tmp_path / "model" / "notes.txt"
    mine.parent.mkdir()
    mine.write_text("kept")
    with pytest.raises(ConfigError, match=r"model holds files that are not a detector"):
        detector.run({"output": str(tmp_path), "num_docs": 8})
    assert mine.read_text() == "kept" and not (tmp_path / "tickets").exists()


def test_a_model_folder_this_job_built_may_be_replaced(tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "detector.json").write_text("{}")
    detector.check_model_folder(tmp_path / "model")  # no error
