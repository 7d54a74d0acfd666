"""Where a job's files lie (issue 94, EXP5): an output folder (and a key folder) holds
the Parquet of its rows alone, so that any reader given the folder itself counts the
rows and nothing else. DuckDB reads every `.parquet` below a folder, hidden folders
included; Polars refuses a folder that holds any other kind of file; `datasets` reads
whatever it finds as Parquet; pyarrow and pandas skip `_` names. Measured on a folder
that kept the run's files beside its rows: DuckDB counted the DP samples as rows,
Polars and `datasets` failed.

The rows are Parquet shards in `data/` (`OUT/data/part-00000.parquet`, the Hub's
layout). What the job keeps about the run (the run file, the manifest, the shards'
digests, the DP samples and their parts, the lock, the dataset card and its metadata,
a key's --explain shards) lies in a sibling folder, `OUT.hrsynth/`, found with
`kept(OUT, NAME)`. A folder inside a sibling (the --explain shards') keeps its own
files in that sibling: nothing is nested twice.
"""

import os

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


SUFFIX = ".hrsynth"  # OUT's sibling: OUT.hrsynth


def join(base: str, name: str) -> str:
    """synth.io.storage.join's rule, here so that storage (which checks locations, which
    ask for siblings) and this module do not import each other."""
    return f"{base.rstrip('/')}/{name}"


def rows_folder(folder) -> str:
    """The folder of an output's shards: what a reader of the documents is pointed at."""
    return join(str(folder), DATA)


def sibling(folder) -> str:
    """The folder where the job keeps its files for output or key `folder` (a local
    path, a filesystem's path or a URI, given back in the same form; `.` and `..` made
    absolute, so they have a name to add to)."""
    text = str(folder).rstrip("/")
    if text in ("", ".", "..") or text.endswith(("/.", "/..")):
        text = os.path.abspath(text or "/")
    return text if inside_sibling(text) else text + SUFFIX


def inside_sibling(folder) -> bool:
    """Whether `folder` is a sibling folder or lies inside one."""
    return any(part.endswith(SUFFIX) for part in str(folder).rstrip("/").split("/"))


def kept(folder, name: str) -> str:
    """Where the job keeps `name` (one of KEPT) for the output or key `folder`."""
    return join(sibling(folder), name)
