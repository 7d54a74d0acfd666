"""mkdocs hooks for the docs site (mkdocs.yml).

- The command-line reference is generated at build time from the job option classes
  (synth/config/jobs.py, the same fields `hrsynth JOB --help` is built from), and the
  generation config's reference from its sections (synth/config/sections.py), into the
  pages that hold the markers below: they cannot drift from the code.
- The measurement write-ups live beside their numbers in benchmarks/results/*.md; they
  are added to the site as results/NAME.md, one source for both.
"""

import sys
from dataclasses import MISSING, fields
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
MARK = "<!-- generated: the options of every job -->"
CONFIG_MARK = "<!-- generated: the generation config's sections -->"
RESULTS = ROOT / "benchmarks" / "results"


def _default(f) -> str:
    if f.default is not MISSING:
        return f"`{f.default}`" if f.default not in (None, "") else ""
    if f.default_factory is not MISSING:
        return f"`{f.default_factory()}`"
    return "required"


def _help(f) -> str:
    return f.metadata.get("help", "").replace("|", "\\|")


def config_reference() -> str:
    """One table per section: key, default, the first release's flat key, what it sets."""
    sys.path.insert(0, str(ROOT))
    from synth.config.sections import FLAT_KEYS, SECTIONS

    flat_of = {where: flat for flat, where in FLAT_KEYS.items()}
    out = []
    for section, cls in SECTIONS.items():
        out += [f"## `{section}:`", "", " ".join(cls.__doc__.split()), ""]
        out += ["| key | default | flat key | what it sets |", "| --- | --- | --- | --- |"]
        for f in fields(cls):
            flat = flat_of.get((section, f.name), flat_of.get((section, None)))
            flat = f"`{flat}`" + (" (the block)" if (section, None) in flat_of else "")
            out.append(f"| `{f.name}` | {_default(f)} | {flat} | {_help(f)} |")
        out.append("")
    return "\n".join(out)


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
                out.append(f"| `{flag(f.name)}` | {_default(f)} | {_help(f)} |")
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
        markdown = markdown.replace(MARK, cli_reference())
    if CONFIG_MARK in markdown:
        markdown = markdown.replace(CONFIG_MARK, config_reference())
    return markdown
