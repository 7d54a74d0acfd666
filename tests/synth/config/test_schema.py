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
