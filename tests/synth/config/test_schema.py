"""The generation config's JSON schema (configs/generate.schema.json), made by pydantic from
the settings classes: it is the code's own (regenerate it with HRSYNTH_WRITE_SCHEMA=1), every
shipped config passes it, and it refuses what load_config refuses by type."""

import json
import os
from pathlib import Path

import jsonschema
import pytest
import yaml

from synth import plugins
from synth.config.generate import json_schema

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_FILE = ROOT / "configs" / "generate.schema.json"
CONFIGS = sorted([*ROOT.glob("configs/tickets*.yaml"), ROOT / "configs" / "cvs.yaml"])


def test_the_schema_file_is_the_codes_own(monkeypatch):
    monkeypatch.setattr(plugins, "installed", lambda group: {})  # hrsynth's own sections
    text = json.dumps(json_schema(), indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("HRSYNTH_WRITE_SCHEMA"):
        SCHEMA_FILE.write_text(text)
    assert SCHEMA_FILE.read_text() == text, "stale: rerun with HRSYNTH_WRITE_SCHEMA=1"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.name)
def test_every_shipped_config_passes_the_schema(config):
    jsonschema.validate(yaml.safe_load(config.read_text()), json_schema())


@pytest.mark.parametrize(
    "doc",
    [
        {"run": {"num_doc": 3}},  # a typo
        {"scale": {"batch_size": "8"}},  # a number as text
        {"tickets": {"label_mix": "uniform"}},  # not one of the choices
        {"audit": {"types": "EMAIL"}},  # one where a list goes
    ],
)
def test_the_schema_refuses_what_the_config_refuses(doc):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, json_schema())


# (config, accepted): the ranges and types the schema carries, at and past each bound.
PARITY = [
    ({"run": {"num_docs": 1}}, True),
    ({"run": {"num_docs": 0}}, False),
    ({"run": {"num_docs": 10**10}}, True),
    ({"run": {"num_docs": 10**10 + 1}}, False),
    ({"run": {"shard_size": 0}}, False),
    ({"scale": {"batch_size": 0}}, False),
    ({"scale": {"min_actors": 0}}, False),
    ({"scale": {"threads_per_actor": 0}}, False),
    ({"scale": {"max_error_share": 1}}, True),
    ({"scale": {"max_error_share": 0}}, False),
    ({"scale": {"actor_memory_gb": 4097}}, False),
    ({"generator": {"generation": {"preset": "thesis", "top_p": 1}}}, True),
    ({"generator": {"generation": {"top_p": 0}}}, False),
    ({"generator": {"generation": {"top_p": 1.01}}}, False),
    ({"generator": {"generation": {"max_new_tokens": 4096}}}, True),
    ({"generator": {"generation": {"max_new_tokens": 4097}}}, False),
    ({"generator": {"generation": {"top_k": -1}}}, False),
    ({"generator": {"generation": {"temperature": 101}}}, False),
    ({"generator": {"generation": {"num_beams": 0}}}, False),
    ({"generator": {"generation": {"max_retries": 101}}}, False),
    ({"generator": {"generation": {"top_kk": 5}}}, False),
    ({"generator": {"generation": {"preset": "fast"}}}, False),
    # issue 72: the tickets' probabilities had no range in the schema
    ({"tickets": {"traits": {"greeting": 0.5, "slip_rate": 0}}}, True),
    ({"tickets": {"traits": {"greeting": 1.5}}}, False),
    ({"tickets": {"traits": {"lower_case": -0.1}}}, False),
    ({"tickets": {"traits": {"register": "informal"}}}, True),
    ({"tickets": {"traits": {"register": {"formal": 1, "casual": 1}}}}, False),
    ({"tickets": {"traits": {"length": {"mean": 80, "sd": 0}}}}, False),
    ({"tickets": {"traits": {"length": {"mean": 80, "sd": 20}}}}, True),
    ({"tickets": {"traits": {"omission": "yes"}}}, False),
    ({"tickets": {"traits": {"greetings": 1}}}, False),
    # issue 84: YAML's .nan passed every range the schema carried
    *[
        (doc, False)
        for doc in (
            {"generator": {"generation": {"temperature": float("nan")}}},
            {"generator": {"generation": {"top_p": float("nan")}}},
            {"generator": {"generation": {"min_p": float("nan")}}},
            {"scale": {"actor_memory_gb": float("nan")}},
            {"tickets": {"traits": {"greeting": float("nan")}}},
        )
    ],
    ({"scale": {"actor_memory_gb": 2.5}}, True),
]


def test_the_schema_says_numbers_must_be_finite():
    """What JSON Schema cannot refuse (.inf where a setting has no bound), its description
    says (issue 72)."""
    assert ".nan and .inf" in json_schema()["description"]


def test_every_number_in_the_schema_refuses_nan():
    """Each schema admitting a number carries the NaN guard, and the guard admits every
    real number (issue 84)."""
    from synth.config.generate import NOT_NAN

    numbers = []

    def walk(node):
        if isinstance(node, dict):
            kinds = node.get("type")
            if kinds == "number" or (isinstance(kinds, list) and "number" in kinds):
                numbers.append(node)
            for k, v in node.items():
                if k != "not":  # the guard's own schema admits a number
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json_schema())
    assert len(numbers) > 10 and all(n.get("not") == NOT_NAN for n in numbers)
    for value in (-1e308, -1, 0, 0.5, 1, 1e308):
        jsonschema.validate(value, {"not": NOT_NAN})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(float("nan"), {"not": NOT_NAN})


@pytest.mark.parametrize(("doc", "accepted"), PARITY, ids=lambda v: json.dumps(v)[:60])
def test_the_schema_and_the_cli_accept_and_refuse_the_same_configs(doc, accepted, tmp_path):
    """What an editor checking the file against the schema says is what `hrsynth
    generate` says. Rules between two settings (min_actors <= num_actors, temperature > 0
    when sampling) and finiteness are the CLI's alone: a JSON schema cannot hold them."""
    from synth import ConfigError
    from synth.config.generate import load_config

    try:
        jsonschema.validate(doc, json_schema())
        by_schema = True
    except jsonschema.ValidationError:
        by_schema = False
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(doc))
    try:
        load_config(str(config))
        by_cli = True
    except ConfigError:
        by_cli = False
    assert (by_schema, by_cli) == (accepted, accepted)
