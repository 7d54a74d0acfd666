"""Reading a whole output back, for tests (jobs read footers and shards one at a time)."""

import pyarrow as pa
import pyarrow.parquet as pq

from synth.contract import SCHEMA
from synth.io.shards import _shard_names, data_folder, iter_summaries
from synth.io.storage import filesystem, join


def read_output(folder) -> pa.Table:
    """Every row of an output (tests and small outputs; the manifest reads footers only)."""
    fs, path = filesystem(str(folder))
    names = sorted(_shard_names(fs, path))
    tables = []
    for name in names:
        with fs.open_input_file(join(data_folder(path), name)) as f:
            tables.append(pq.read_table(f, schema=SCHEMA))
    return pa.concat_tables(tables) if tables else SCHEMA.empty_table()


def read_summaries(folder) -> list[dict]:
    """Each shard's summary (iter_summaries), as a list: tests and small outputs."""
    return list(iter_summaries(folder))
