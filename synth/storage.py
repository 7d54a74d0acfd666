"""Paths or object-store URIs, the same way: the pyarrow filesystem behind a location.

Jobs take `--train`, `--history` and output roots as local paths or URIs (s3://, gs://,
file://, …); everything that reads or writes them goes through here, so no code assumes
a local disk.
"""

import json
import os

import pyarrow.fs as pafs


def filesystem(location: str) -> tuple[pafs.FileSystem, str]:
    """(filesystem, path inside it); local paths are made absolute."""
    if "://" in location:
        return pafs.FileSystem.from_uri(location)
    return pafs.LocalFileSystem(), os.path.abspath(location)


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
