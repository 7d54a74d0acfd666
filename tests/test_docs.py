"""The docs site builds with no warning (broken links, missing pages, a nav entry without
its file), and its home (the README), command-line, config and API pages are the
code's own."""

import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from synth.config.sections import sections

ROOT = Path(__file__).parents[1]


@pytest.mark.component("the docs build")
def test_the_docs_site_builds_strict_with_the_generated_cli_and_config_pages(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    cli = (tmp_path / "cli" / "index.html").read_text()
    assert "--max-error-share" in cli and "hrsynth detector build" in cli
    assert (tmp_path / "results" / "detector" / "index.html").is_file()
    home = (tmp_path / "index.html").read_text()  # the README, its links the site's
    assert "hrsynth" in home and 'href="results/detector/"' in home and "docs/" not in home
    api = (tmp_path / "api" / "index.html").read_text()  # written from the docstrings
    assert "synth.calendar" in api and "def shift_date(" in api and "class Backend" in api
    config = (tmp_path / "configuration" / "index.html").read_text()
    for section, cls in sections().items():  # every setting of every section, documented
        assert f"<code>{section}:</code>" in config
        assert all(f"<code>{f.name}</code>" in config for f in fields(cls)), section


def test_the_readme_stays_short():
    words = len((ROOT / "README.md").read_text().split())
    assert words <= 1500, f"README.md has {words} words; move detail to docs/"


def test_every_page_the_code_names_exists():
    """A docstring or message that sends the reader to docs/X.md or a results page names
    one that is there (a link to docs/results/speed.md once led nowhere)."""
    import re

    named = set()
    for folder in ("synth", "jobs", "eval", "benchmarks", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            named |= set(re.findall(r"(?:docs|benchmarks/results)/[\w/.-]+?\.md", path.read_text()))
    assert named and not sorted(p for p in named if not (ROOT / p).is_file())


def test_the_architecture_names_every_file_a_ct2_run_loads():
    """docs/architecture.md lists, by folder, the files benchmarks/speed/run_imports.py
    measured an 8-ticket `generate --backend ct2` run loading."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    loaded = json.loads((root / "benchmarks" / "results" / "run_imports.json").read_text())
    text = (root / "docs" / "architecture.md").read_text()
    section = text[text.index("## What an 8-ticket `generate --backend ct2` run loads") :]
    missing = []
    for path in loaded["after"]["union"]:
        folder, name = path.rsplit("/", 1)
        row = next(
            (line for line in section.splitlines() if line.startswith(f"| `{folder}/` |")), ""
        )
        if f"`{name}`" not in row:
            missing.append(path)
    assert missing == []
