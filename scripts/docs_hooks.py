"""mkdocs hooks for the docs site (mkdocs.yml).

- The command-line reference is generated at build time from the job option classes
  (synth/config/jobs.py, the same fields `hrsynth JOB --help` is built from), into the
  page that holds the marker below: it cannot drift from the code.
- The measurement write-ups live beside their numbers in benchmarks/results/*.md; they
  are added to the site as results/NAME.md, one source for both.
"""

import sys
from dataclasses import MISSING, fields
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
MARK = "<!-- generated: the options of every job -->"
RESULTS = ROOT / "benchmarks" / "results"


def cli_reference() -> str:
    """One table per command: flag, default, what it sets."""
    sys.path.insert(0, str(ROOT))
    from jobs.cli import COMMANDS
    from synth.config.options import flag

    out = []
    for name, module in COMMANDS.items():
        verbs = list(module.ACTIONS) if hasattr(module, "ACTIONS") else [""]
        for verb in verbs:
            out += [f"## `hrsynth {name}{' ' + verb if verb else ''}`", ""]
            out += [module.__doc__.strip().splitlines()[0], ""]
            out += ["| option | default | what it sets |", "| --- | --- | --- |"]
            for f in fields(module.OPTIONS):
                if f.default is not MISSING:
                    default = f"`{f.default}`" if f.default not in (None, "") else ""
                elif f.default_factory is not MISSING:
                    default = f"`{f.default_factory()}`"
                else:
                    default = "required"
                text = f.metadata.get("help", "").replace("|", "\\|")
                out.append(f"| `{flag(f.name)}` | {default} | {text} |")
            out.append("")
    return "\n".join(out)


def on_files(files, config):
    for path in sorted(RESULTS.glob("*.md")):
        files.append(
            File.generated(config, f"results/{path.name}", content=path.read_text("utf-8"))
        )
    return files


def on_page_markdown(markdown, page, config, files):
    if MARK in markdown:
        return markdown.replace(MARK, cli_reference())
    return markdown
