"""Paths or object-store URIs, the same way: the pyarrow filesystem behind a location.

Jobs take `--train`, `--history` and output roots as local paths or URIs (s3://, gs://,
file://, …); everything that reads or writes them goes through here, so no code assumes
a local disk.
"""

import json
import os
import time
from collections.abc import Callable

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from synth.io.locations import resolved


def filesystem(location: str) -> tuple[pafs.FileSystem, str]:
    """(filesystem, path inside it); local paths are made absolute."""
    if "://" in location:
        return pafs.FileSystem.from_uri(location)
    return pafs.LocalFileSystem(), resolved(location)


def join(base: str, name: str) -> str:
    return f"{base.rstrip('/')}/{name}"


def exists(fs: pafs.FileSystem, path: str) -> bool:
    return fs.get_file_info(path).type != pafs.FileType.NotFound


def list_names(fs: pafs.FileSystem, folder: str) -> list[str]:
    """File names directly in a folder (empty when it does not exist)."""
    info = fs.get_file_info(pafs.FileSelector(folder, allow_not_found=True))
    return sorted(i.base_name for i in info if i.type == pafs.FileType.File)


def read_json(fs: pafs.FileSystem, path: str):
    with fs.open_input_stream(path) as f:
        return json.loads(f.read().decode("utf-8"))


def read_state(fs: pafs.FileSystem, path: str, fix: str) -> dict:
    """A JSON object a job keeps between runs (an account, a pointer, a status), or one
    line naming the file and `fix` when it is damaged (never a parser's trace)."""
    from synth import ConfigError

    try:
        doc = read_json(fs, path)
    except (OSError, ValueError):
        doc = None
    if not isinstance(doc, dict):
        raise ConfigError(f"{path} is damaged (not the JSON object a job writes); {fix}")
    return doc


def write_atomic(location: str, write: Callable, owner_only: bool = False) -> None:
    """Write a file as a whole or not at all: `write(stream)` fills a temporary file beside
    it, which is then moved over the target, so a reader never sees a partial file and an
    interrupted writer leaves the old one. The one place every output file is written.

    `owner_only` (what re-identifies people: the de-identification key): on a local disk
    the folder is made 0700 and the file 0600 from its creation, whatever the umask;
    object stores have no such bits (their bucket policy decides)."""
    fs, path = filesystem(str(location))
    folder, name = path.rsplit("/", 1)
    local_owner_only = owner_only and isinstance(fs, pafs.LocalFileSystem)
    if local_owner_only:
        owner_only_folder(folder)
    fs.create_dir(folder, recursive=True)
    temporary = f"{folder}/.{name}.tmp{os.getpid()}-{time.time_ns()}"
    if local_owner_only:
        os.close(os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    try:
        with fs.open_output_stream(temporary) as stream:
            write(stream)
        fs.move(temporary, path)
    finally:
        if exists(fs, temporary):
            fs.delete_file(temporary)


def owner_only_folder(folder: str) -> None:
    """A local folder made 0700, and so is each folder above it this call creates (a
    key's `data/` and the key folder itself), whatever the umask."""
    missing, at = [], os.path.abspath(folder)
    while not os.path.exists(at):
        missing.append(at)
        at = os.path.dirname(at)
    os.makedirs(folder, exist_ok=True)
    for created in [*missing, os.path.abspath(folder)]:
        os.chmod(created, 0o700)


def write_json(location: str, doc) -> None:
    """A JSON document (indented, dates as strings), atomically."""
    data = json.dumps(doc, indent=1, default=str).encode("utf-8")
    write_atomic(location, lambda stream: stream.write(data))


def write_text(location: str, text: str) -> None:
    """Text (UTF-8), atomically."""
    data = text.encode("utf-8")
    write_atomic(location, lambda stream: stream.write(data))


def write_bytes(location: str, data: bytes) -> None:
    write_atomic(location, lambda stream: stream.write(data))


def write_table(location: str, table: pa.Table, owner_only: bool = False) -> None:
    """An Arrow table as one Parquet file, atomically (`owner_only`: see write_atomic)."""
    write_atomic(location, lambda stream: pq.write_table(table, stream), owner_only)
