"""Issue 64: one finite, bounded range per setting, declared on its typed field, so the
config check, the JSON schema and the reference say the same and nothing infinite, NaN
or absurd reaches a run."""

import math

import jsonschema
import pytest

from synth import ConfigError
from synth.config.generate import json_schema, load_config
from synth.generation.params import params_from


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"temperature": math.inf}, "generation.temperature must be a finite number"),
        ({"temperature": 1.0e308 * 10}, "generation.temperature must be a finite number"),
        ({"top_p": math.nan}, "generation.top_p must be a finite number"),
        ({"top_p": 0.0}, "generation.top_p must be > 0"),
        ({"top_p": 1.5}, "generation.top_p must be <= 1"),
        ({"max_new_tokens": 100_000}, "generation.max_new_tokens must be <= 4096"),
        ({"repetition_penalty": math.inf}, "generation.repetition_penalty must be a finite"),
        ({"temperature": 0.0}, "set do_sample: false"),
        ({"min_new_tokens": 50, "max_new_tokens": 40}, "min_new_tokens (50) must be <="),
    ],
)
def test_generation_settings_out_of_range_are_one_line_naming_the_field(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        params_from("default", overrides)


def test_greedy_decoding_takes_temperature_zero():
    assert params_from("default", {"temperature": 0.0, "do_sample": False}).temperature == 0


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"num_docs": 10**13}, "num_docs must be <= 1e+10"),
        ({"num_docs": 10**100}, "num_docs must be <= 1e+10"),
        ({"num_docs": 0}, "num_docs must be >= 1"),
        ({"actor_memory_gb": math.nan}, "actor_memory_gb must be a finite number"),
        ({"actor_memory_gb": 0.0}, "actor_memory_gb must be > 0"),
        ({"max_error_share": math.inf}, "max_error_share must be a finite number"),
        ({"batch_size": 0}, "batch_size must be >= 1"),
    ],
)
def test_run_settings_out_of_range_are_one_line_naming_the_field(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("+", r"\+")):
        load_config(None, overrides)


def test_the_schema_carries_the_ranges():
    """The sections' ranges (the decoding parameters sit in an untyped mapping there:
    their ranges are checked by params_from)."""
    schema = json_schema()
    for doc in ({"run": {"num_docs": 10**13}}, {"scale": {"max_error_share": 1.5}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(doc, schema)
