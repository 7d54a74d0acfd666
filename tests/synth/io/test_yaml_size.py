"""Issue 64: a config holding a list of 10^6 items (3 MB) took over 120 s and 758 MB to
parse; a YAML file over MAX_YAML_BYTES is refused unread, in one line."""

import itertools

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


def alias_bomb(levels: int = 9) -> str:
    """`run.countries` (a known key) holding nine levels of nine aliases, anchors and all:
    9^9 values in under 500 bytes (issue 72: past 120 s and 2 GB before this)."""
    names = "abcdefghij"
    lines = ["run:", "  countries:", "    - &a [US, US, US, US, US, US, US, US, US]"]
    for before, name in itertools.pairwise(names[:levels]):
        lines.append(f"    - &{name} [" + ", ".join([f"*{before}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_under_a_known_key_is_refused_in_one_line(tmp_path, capsys):
    config = tmp_path / "bomb.yaml"
    config.write_text(alias_bomb())
    assert config.stat().st_size < 500
    assert generate.main(["--config", str(config), "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert "aliases (*name) expand to" in err and "\n" not in err
    assert not (tmp_path / "o").exists()


def test_aliases_that_expand_a_little_are_read(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text(alias_bomb(levels=3))
    assert len(read_yaml(path, "config")["run"]["countries"]) == 3
