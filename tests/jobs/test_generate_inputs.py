"""`hrsynth generate` on settings of the wrong type or value: exit 2 and one line naming
the field and what it takes, before a model is loaded or Ray starts."""

import pytest
import yaml

from jobs import generate as generate_job
from synth.config.flat import FLAT_KEYS

PROBES = [
    ({"generation": {"top_k": "50"}}, "generation.top_k must be an integer, got '50'"),
    (
        {"generation": {"max_new_tokens": 40.5}},
        "generation.max_new_tokens must be an integer, got 40.5",
    ),
    ({"generation": {"temperature": "hot"}}, "generation.temperature must be a number, got 'hot'"),
    (
        {"dtype": "fp8"},
        "dtype 'fp8' unknown; use one of ['auto', 'float32', 'bfloat16', 'float16', 'int8'",
    ),
    ({"device": "tpu"}, "device 'tpu' unknown; use auto, cpu, cuda, cuda:N or mps"),
    ({"batch_size": True}, "batch_size must be an integer, got True"),
    ({"countries": "US"}, "countries must be a list of strings, got 'US'"),
    ({"seed": "zero"}, "seed must be an integer, got 'zero'"),
    ({"colour": "blue"}, "unknown setting(s) ['colour']"),
    ({"num_actors": 2, "min_actors": 3}, "min_actors must be in [1, num_actors=2], got 3"),
    ({"max_error_share": 0}, "max_error_share must be > 0, got 0"),
    ({"actor_memory_gb": -1}, "actor_memory_gb must be > 0, got -1"),
    # found in the actors after 42 s, as 69 lines of Ray trace
    ({"countries": ["US", "XX"]}, "countries: unknown or empty ['XX']"),
    (
        {"model": "openai:m", "engine": {"concurrency": 0}},
        "engine.concurrency must be >= 1, got 0",
    ),
    (
        {"model": "openai:m", "engine": {"max_attempts": 0}},
        "engine.max_attempts must be >= 1, got 0",
    ),
    ({"model": "openai:m", "engine": {"timeout_s": 0}}, "engine.timeout_s must be > 0, got 0"),
]


def in_sections(settings: dict) -> dict:
    """Flat settings as a nested file holds them (an unknown key stays at the top)."""
    doc = {}
    for key, value in settings.items():
        if key in FLAT_KEYS:
            section, name = FLAT_KEYS[key]
            doc.setdefault(section, {})[name] = value
        else:
            doc[key] = value
    return doc


@pytest.mark.parametrize("setting, message", PROBES, ids=[str(p[0]) for p in PROBES])
def test_bad_settings_are_named_in_one_line(tmp_path, capsys, setting, message):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(in_sections({"num_docs": 8, **setting})))
    code = generate_job.main(["--config", str(config), "--output", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and message in err, err
    assert not (tmp_path / "out").exists()  # refused before the output was touched


def test_an_unquoted_yaml_date_is_read_as_the_date(tmp_path):
    from synth.config.generate import load_config

    config = tmp_path / "config.yaml"
    config.write_text("run:\n  reference_date: 2026-11-22\n")
    assert load_config(str(config)).run.reference_date == "2026-11-22"
    config.write_text("reference_date: 2026-11-22\n")  # a flat file of the first release
    assert load_config(str(config)).run.reference_date == "2026-11-22"


def test_an_unknown_hub_model_is_refused_on_the_driver(tmp_path, capsys):
    code = generate_job.main(
        ["--output", str(tmp_path / "out"), "--num-docs", "4", "--model", "no-such-org/no-model"]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "model 'no-such-org/no-model'" in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "text, message",
    [
        # PyYAML's own date parser raised deep inside the file read (45 lines)
        ("run:\n  reference_date: 2026-02-30\n", "'2026-02-30' is not a date written YYYY-MM-DD"),
        # PyYAML kept the last of two keys without a word
        ("run:\n  seed: 1\n  num_docs: 8\n  seed: 2\n", "key 'seed' is given twice (line 4)"),
    ],
)
def test_what_yaml_hides_is_one_line(tmp_path, capsys, text, message):
    config = tmp_path / "config.yaml"
    config.write_text(text)
    code = generate_job.main(["--config", str(config), "--output", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and message in err, err
