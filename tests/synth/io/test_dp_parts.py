"""Each shard's DP rows are written beside it and streamed into one file at the end; a
finished shard whose part is gone is named, never silently left out."""

import pandas as pd
import pyarrow.parquet as pq
import pytest

from synth import ConfigError
from synth.io.shards import DP_SAMPLES, join_dp_samples, summed_summaries, write_dp_part
from tests.kept import beside


def test_parts_are_joined_in_shard_order(tmp_path):
    write_dp_part(tmp_path, 2, pd.DataFrame({"id": ["r-00000005"], "reason": ["flu"]}))
    write_dp_part(
        tmp_path, 0, pd.DataFrame({"id": ["r-00000000", "r-00000001"], "reason": ["a", "b"]})
    )
    assert join_dp_samples(tmp_path, [0, 2]) == DP_SAMPLES
    table = pq.read_table(beside(tmp_path, DP_SAMPLES))
    assert table.column("id").to_pylist() == ["r-00000000", "r-00000001", "r-00000005"]
    assert pq.ParquetFile(beside(tmp_path, DP_SAMPLES)).num_row_groups == 2  # one per shard


def test_a_missing_part_is_named_with_the_fix(tmp_path):
    write_dp_part(tmp_path, 0, pd.DataFrame({"id": ["r-00000000"], "reason": ["a"]}))
    with pytest.raises(ConfigError, match=r"_dp_samples/part-00001.parquet is missing.*rerun"):
        join_dp_samples(tmp_path, [0, 1])
    assert not beside(tmp_path, DP_SAMPLES).exists()  # nothing half-written


def test_summaries_fold_into_one_of_the_same_shape():
    def shard(n, label, dp):
        return {
            "shard": n,
            "rows": 2,
            "rows_per_label": {label: 2},
            "rows_with_error": 1,
            "rows_flagged_no_variables": 0,
            "tokens_generated": 5,
            "entities_found": {label: {"date": 2}},
            "dp_sample_rows": dp,
            "planning": {"styles": {"plain": 2}},
        }

    total = summed_summaries(
        [shard(0, "a", 1), shard(1, "a", 0), shard(2, "b", 3)],
        merges={
            "planning": lambda parts: {
                "styles": {"plain": sum(p["styles"]["plain"] for p in parts)}
            }
        },
    )
    assert total["rows"] == 6 and total["shards"] == 3 and total["tokens_generated"] == 15
    assert total["rows_per_label"] == {"a": 4, "b": 2}
    assert total["entities_found"] == {"a": {"date": 4}, "b": {"date": 2}}
    assert total["dp_shards"] == [0, 2] and total["planning"] == {"styles": {"plain": 6}}
