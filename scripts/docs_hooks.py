"""mkdocs hooks for the docs site (mkdocs.yml).

- The command-line reference is generated at build time from the job option classes
  (synth/config/*_options.py, the same fields `hrsynth JOB --help` is built from), and the
  generation config's reference from its sections (synth/config/sections.py), into the
  pages that hold the markers below: they cannot drift from the code.
- The measurement write-ups live beside their numbers in benchmarks/results/*.md; they
  are added to the site as results/NAME.md, one source for both.
- The home page is the README (its links turned into the site's), and the Python API
  page is written from the library's docstrings (read with `ast`, nothing imported).
"""

import ast
import re
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
    """The field's help, with the names its registry holds when the docs are built."""
    listed = f.metadata.get("names")
    names = f" (from: {', '.join(listed())})" if listed else ""
    return (f.metadata.get("help", "") + names).replace("|", "\\|")


def config_reference() -> str:
    """One table per section: key, default, the first release's flat key, what it sets."""
    sys.path.insert(0, str(ROOT))
    from synth.config.flat import FLAT_KEYS
    from synth.config.sections import sections

    flat_of = {where: flat for flat, where in FLAT_KEYS.items()}
    out = []
    for section, cls in sections().items():
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
    from jobs.cli import COMMANDS, command
    from synth.config.options import flag

    out = []
    for name in COMMANDS:
        module = command(name)
        verbs = list(module.ACTIONS) if hasattr(module, "ACTIONS") else [""]
        for verb in verbs:
            out += [f"## `hrsynth {name}{' ' + verb if verb else ''}`", ""]
            out += [module.__doc__.strip().splitlines()[0], ""]
            out += ["| option | default | what it sets |", "| --- | --- | --- |"]
            for f in fields(module.OPTIONS):
                out.append(f"| `{flag(f.name)}` | {_default(f)} | {_help(f)} |")
            out.append("")
    return "\n".join(out)


def home_page() -> str:
    """README.md with its links made the site's: docs/X -> X, benchmarks/results/X ->
    results/X."""
    text = (ROOT / "README.md").read_text("utf-8")
    text = text.replace("(`.venv/bin/mkdocs serve`, or read `docs/` as it is)", "(this site)")
    text = re.sub(r"\]\(docs/", "](", text)
    return re.sub(r"\]\(benchmarks/results/", "](results/", text)


API_PACKAGES = ("synth", "eval")


def _signature(node) -> str:
    return f"{node.name}({ast.unparse(node.args)})" if hasattr(node, "args") else node.name


def _first_paragraph(node) -> str:
    doc = ast.get_docstring(node) or ""
    return " ".join(doc.split("\n\n")[0].split())


def api_reference() -> str:
    """Every public module, class and function of synth/ and eval/: signature and the
    first paragraph of its docstring."""
    out = []
    for package in API_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            tree = ast.parse(path.read_text("utf-8"))
            public = [
                n
                for n in tree.body
                if isinstance(n, ast.FunctionDef | ast.ClassDef) and not n.name.startswith("_")
            ]
            if not public and not ast.get_docstring(tree):
                continue
            out += [f"## `{name}`", "", _first_paragraph(tree), ""]
            for node in public:
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                out += [f"- `{kind} {_signature(node)}`: {_first_paragraph(node)}"]
            out.append("")
    return "\n".join(out)


API_MARK = "<!-- generated: the library's modules, classes and functions -->"


def on_files(files, config):
    for path in sorted(RESULTS.glob("*.md")):
        files.append(
            File.generated(config, f"results/{path.name}", content=path.read_text("utf-8"))
        )
    files.append(File.generated(config, "index.md", content=home_page()))
    return files


def on_page_markdown(markdown, page, config, files):
    if MARK in markdown:
        markdown = markdown.replace(MARK, cli_reference())
    if CONFIG_MARK in markdown:
        markdown = markdown.replace(CONFIG_MARK, config_reference())
    if API_MARK in markdown:
        markdown = markdown.replace(API_MARK, api_reference())
    return markdown
