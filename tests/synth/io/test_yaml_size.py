"""Issue 64: a config holding a list of 10^6 items (3 MB) took over 120 s and 758 MB to
parse; a YAML file over MAX_YAML_BYTES is refused unread, in one line."""

import pytest

from jobs import generate
from synth import ConfigError
from synth.io.files import MAX_YAML_BYTES, read_yaml


def test_an_oversized_config_is_refused_unread(tmp_path, capsys):
    config = tmp_path / "big.yaml"
    config.write_text("run:\n  countries: [" + "US, " * 1_000_000 + "US]\n")
    assert config.stat().st_size > MAX_YAML_BYTES
    assert generate.main(["--config", str(config), "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert "is 4,000,023 bytes, more than 1,048,576" in err and "\n" not in err
    assert not (tmp_path / "o").exists()


def test_a_file_at_the_limit_is_read(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("a: " + "x" * (MAX_YAML_BYTES - 4) + "\n")
    assert path.stat().st_size == MAX_YAML_BYTES
    assert len(read_yaml(path, "config")["a"]) == MAX_YAML_BYTES - 4
    path.write_text("a: " + "x" * (MAX_YAML_BYTES - 3) + "\n")
    with pytest.raises(ConfigError, match="more than 1,048,576"):
        read_yaml(path, "config")
