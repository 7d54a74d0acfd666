"""Training data as Ray Datasets: generated shards read where they lie, or rows in memory."""

import warnings

import ray

from synth.contract import NO_VARIABLES
from synth.io.storage import filesystem, join


def read_shards(location: str, names: list[str] | None = None) -> ray.data.Dataset:
    """The text, label, entities and template of a generated output (local path or URI;
    `names`: only these files of it), without the free-form tickets that hold none of
    their variables: those are not labelled examples."""
    fs, folder = filesystem(location)
    paths = [join(folder, n) for n in names] if names is not None else folder
    ds = ray.data.read_parquet(
        paths, filesystem=fs, columns=["text", "label", "entities", "template_id", "error"]
    )
    with warnings.catch_warnings():  # Ray Data's hint to write the filter as an expression
        warnings.filterwarnings("ignore", message="Use 'expr' instead of 'fn'")
        ds = ds.filter(lambda row: NO_VARIABLES not in (row["error"] or ""))
    return ds.drop_columns(["error"])


def from_rows(rows: list[dict]) -> ray.data.Dataset:
    return ray.data.from_items(rows)
