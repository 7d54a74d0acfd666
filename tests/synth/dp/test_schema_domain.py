"""Values at the edges of a schema's domain: case, out-of-range numbers, and the advice."""

import pandas as pd
import pytest

from synth import ConfigError
from synth.dp.schema import encode, schema_from_dict


def schema(**years):
    return schema_from_dict(
        {
            "attributes": {
                "role": {"type": "categorical", "values": ["Advocate", "HR", "Data Science"]},
                "years": {"type": "numeric", "bins": [0, 3, 20, 51], **years},
            }
        }
    )


def test_roles_match_whatever_their_case():
    table = pd.DataFrame({"role": ["ADVOCATE", "advocate", "hr", "data science"], "years": 1})
    codes, clipped = encode(table, schema())
    assert codes[:, 0].tolist() == [0, 0, 1, 2] and clipped["role"] == 0


def test_a_case_that_names_two_values_stays_unknown():
    two = schema_from_dict({"attributes": {"r": {"type": "categorical", "values": ["HR", "Hr"]}}})
    assert encode(pd.DataFrame({"r": ["HR", "Hr"]}), two)[0][:, 0].tolist() == [0, 1]
    with pytest.raises(ConfigError, match="outside the declared domain of 'r'"):
        encode(pd.DataFrame({"r": ["hr"]}), two)


def test_out_of_range_clip_is_a_public_rule_of_the_schema():
    table = pd.DataFrame({"role": "HR", "years": [67, 2, -1, 50]})
    codes, clipped = encode(table, schema(out_of_range="clip"))
    assert codes[:, 1].tolist() == [2, 0, 0, 2] and clipped["years"] == 2
    assert schema(out_of_range="clip").to_dict()["attributes"]["years"]["out_of_range"] == "clip"


def test_each_error_names_a_fix_that_exists():
    with pytest.raises(ConfigError) as numeric:
        encode(pd.DataFrame({"role": "HR", "years": [67]}), schema())
    assert "out_of_range: clip" in str(numeric.value)
    assert "--on-out-of-domain clip" in str(numeric.value)
    # Clipping cannot place a role nobody declared: the advice does not offer it.
    with pytest.raises(ConfigError) as role:
        encode(pd.DataFrame({"role": ["Chef"], "years": 1}), schema(), on_out_of_domain="clip")
    assert "add the value(s) to its 'values'" in str(role.value)
    assert "clip" not in str(role.value)
    with pytest.raises(ConfigError, match="numeric attributes only"):
        schema_from_dict(
            {"attributes": {"r": {"type": "categorical", "values": [1], "out_of_range": "clip"}}}
        )
