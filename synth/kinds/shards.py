"""A shard's planned documents and which ids it holds: what a kind's planner returns and
what the checks of synth.kinds.base and the jobs read, apart from the registry of kinds
(synth.kinds) so that neither imports the other."""

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import pandas as pd


class ShardPlan(NamedTuple):
    """One shard's planned documents, its counts for the manifest (kept in the shard's
    footer) and its DP-sampled rows (None: no DP model used)."""

    docs: list
    counts: dict
    dp_samples: "pd.DataFrame | None"


def shard_count(num_docs: int, shard_size: int) -> int:
    return -(-num_docs // shard_size)


def shard_rows(num_docs: int, shard_size: int, shard: int) -> int:
    """How many documents shard `shard` holds (the last one may be short)."""
    return max(0, min(shard_size, num_docs - shard * shard_size))


def shard_ids(run_id: str, num_docs: int, shard_size: int, shard: int) -> list[str] | None:
    """The ids of the documents shard `shard` of a run holds (None: the run has no such
    shard), as the records name them (synth.record)."""
    first, rows = shard * shard_size, shard_rows(num_docs, shard_size, shard)
    if rows == 0:
        return None
    return [f"{run_id}-{i:08d}" for i in range(first, first + rows)]
