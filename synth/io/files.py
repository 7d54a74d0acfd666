"""Reading the project's own data files: YAML with one-line errors that name the file;
where a user's file stops being its encoding."""

from pathlib import Path

import yaml

from synth import ConfigError


class StrictLoader(yaml.SafeLoader):
    """YAML as written: a key given twice is an error (PyYAML keeps the last one
    silently), and a date-like value that is no date (2026-02-30) stays text, for the
    setting's own check to name, instead of failing inside the parser."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                mark = key_node.start_mark
                raise ConfigError(
                    f"{self.name}: key '{key}' is given twice (line {mark.line + 1}); keep one"
                )
            seen.add(key)
        return super().construct_mapping(node, deep)

    def construct_yaml_timestamp(self, node):
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            return self.construct_scalar(node)


StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", StrictLoader.construct_yaml_timestamp)


# The most nodes a YAML document may stand for once its aliases are expanded. An alias
# is one node that stands for its anchor's whole tree: nine levels of nine aliases (a
# 448-byte value under a known key, issue 72) stand for 9^9 nodes, and whatever walks
# the settings (validation, the fingerprint) then ran past 120 s and 2 GB. hrsynth's own
# files stand for under 50,000; a 1 MB file without aliases for about 500,000.
MAX_YAML_NODES = 2_000_000


def load_yaml(text: str, name: str) -> object:
    """Parse YAML text with StrictLoader; `name` says where it came from in messages. A
    document whose aliases expand past MAX_YAML_NODES is refused before it is built."""
    loader = StrictLoader(text)
    loader.name = name
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if (size := expanded_size(node)) > MAX_YAML_NODES:
            raise ConfigError(
                f"{name}: its aliases (*name) expand to {size:,} values, more than "
                f"{MAX_YAML_NODES:,}; write the values out, or use fewer aliases"
            )
        return loader.construct_document(node)
    finally:
        loader.dispose()


def expanded_size(node, sizes=None) -> int:
    """How many nodes `node` stands for with every alias expanded: an alias's anchor is
    the same node object, counted once per place it is used (memoised: linear time)."""
    sizes = {} if sizes is None else sizes
    if id(node) in sizes:
        return sizes[id(node)]
    sizes[id(node)] = 1  # a node that holds itself (a recursive alias) counts once
    children = []
    if isinstance(node, yaml.SequenceNode):
        children = node.value
    elif isinstance(node, yaml.MappingNode):
        children = [part for pair in node.value for part in pair]
    total = 1 + sum(expanded_size(child, sizes) for child in children)
    sizes[id(node)] = total
    return total


# The largest YAML file read (configs, taxonomies, lexicons): hrsynth's own are under
# 200 kB; a 3 MB config holding a list of 10^6 items took over 120 s and 758 MB to parse
# (issue 64), so a larger file is refused before it is parsed.
MAX_YAML_BYTES = 1 << 20


def read_settings_text(path: Path, what: str) -> str:
    """A settings file's text (a YAML file, a roles list): one line for a file over
    MAX_YAML_BYTES (refused unread) and for bytes that are not UTF-8, naming where they
    start; a binary file gave a 29-line UnicodeDecodeError (issue 94, ROL2)."""
    size = Path(path).stat().st_size
    if size > MAX_YAML_BYTES:
        raise ConfigError(
            f"{what} {path} is {size:,} bytes, more than {MAX_YAML_BYTES:,}: settings "
            "files are small; check that this is the file you meant"
        )
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        line, byte, _ = undecodable_at(Path(path), "utf-8")
        raise ConfigError(
            f"{what} {path} is not UTF-8 text (line {line}, byte {byte} of the line); "
            "check that this is the file you meant, or save it as UTF-8"
        ) from None


def read_yaml(path: Path, what: str) -> object:
    """Parse a YAML file, turning parse and IO errors into a one-line ConfigError; a file
    over MAX_YAML_BYTES is refused unread."""
    try:
        return load_yaml(read_settings_text(path, what), f"{what} {path}")
    except FileNotFoundError:
        raise ConfigError(f"{what} file not found: {path}; check the path") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"{what} {path} is not valid YAML{where}: fix the syntax") from None


def undecodable_at(path: Path, encoding: str) -> tuple[int, int, int]:
    """(line, byte in the line, byte in the file) of the first byte `encoding` cannot
    decode, all counted from 1; read line by line, one line held at a time. Bytes a
    decoder holds over from the line before count where they stand."""
    import codecs

    decoder = codecs.getincrementaldecoder(encoding)()
    start, number, line = 0, 1, b""
    with path.open("rb") as f:
        for number, line in enumerate(f, 1):
            held = len(decoder.getstate()[0])
            try:
                decoder.decode(line)
            except UnicodeDecodeError as e:
                return number, max(e.start - held, 0) + 1, start + e.start - held + 1
            start += len(line)
    held = len(decoder.getstate()[0])  # the file ends inside a character
    return number, len(line) - held + 1, start - held + 1
