"""Where a job keeps its own files for an output folder, as a Path (synth.io.layout: in
the sibling `OUT.hrsynth/`, never among the rows)."""

from pathlib import Path

from synth.io.layout import kept


def beside(folder, name: str, made: bool = False) -> Path:
    """`made`: the sibling folder created, for a test that puts a file there itself."""
    path = Path(kept(folder, name))
    if made:
        path.parent.mkdir(parents=True, exist_ok=True)
    return path
