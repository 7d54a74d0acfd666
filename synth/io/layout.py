"""Where a job's files lie in its output folder (and in a key folder): one place to read
it, and one to change it.

The rows are Parquet shards in `data/` (`data/part-00000.parquet`, the Hub's layout).
What the job keeps about the run (the run file, the manifest, the shards' digests, the
DP samples and their parts, the lock, the dataset card and its metadata, a key's
--explain shards) is at `kept(folder, NAME)`, today beside `data/` in the folder. A
reader given the folder itself may take some of those for rows (DuckDB reads every
`.parquet` below it, Polars refuses a folder of mixed files: issue 94, EXP5); moving
them out of the folder is a change to `kept` and to nothing that calls it.
"""

from synth.io.storage import join

DATA = "data"  # the shards' folder inside an output (the documents alone)
RUN_FILE = "_run.json"
MANIFEST = "_manifest.json"
DP_SAMPLES = "_dp_samples.parquet"
DP_PARTS = "_dp_samples"  # each shard's DP rows, written with the shard, joined at the end
# Per shard, the SHA-256 of the bytes the job wrote (`_written/part-00000.parquet.sha256`).
WRITTEN = "_written"
LOCK = "_lock.json"
CARD = "_README.md"  # the dataset card (synth.kinds.card says why not README.md)
CARD_METADATA = ".huggingface.yaml"
EXPLAIN = "_explain"  # a key folder's --explain shards

# Every name the job keeps beside the rows (what a folder of the job's may hold).
KEPT = (RUN_FILE, MANIFEST, DP_SAMPLES, DP_PARTS, WRITTEN, LOCK, CARD, CARD_METADATA, EXPLAIN)


def rows_folder(folder) -> str:
    """The folder of an output's shards: what a reader of the documents is pointed at."""
    return join(str(folder), DATA)


def kept(folder, name: str) -> str:
    """Where the job keeps `name` (one of KEPT) for the output or key `folder` (a local
    path, a filesystem's path or a URI, given back in the same form)."""
    return join(str(folder), name)
