"""The library and the evaluation code never import Ray: only jobs/ touches the cluster,
so synth and eval run in a notebook, a Spark task or a plain script."""

import ast
import subprocess
import sys
from pathlib import Path

IMPORT_ALL = """
import importlib, pkgutil, sys
import eval, synth
for package in (synth, eval):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
print(sorted(m for m in sys.modules if m == "ray" or m.startswith("ray.")))
"""


def test_importing_every_module_of_synth_and_eval_leaves_ray_out():
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_cli_parser_imports_no_heavy_library():
    """`hrsynth --help` answers at once (0.25 s here): the jobs import diffprivlib, pandas,
    torch and Ray inside `run`, not at the top."""
    code = (
        "import sys, jobs.cli; heavy = ('diffprivlib', 'pandas', 'torch', 'ray', 'sklearn'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_only_jobs_on_ray_imports_ray():
    """Ray is named in one package: moving to another executor touches jobs/on_ray only."""
    root = Path(__file__).resolve().parents[2]
    importers = set()
    for path in [
        *root.glob("synth/**/*.py"),
        *root.glob("eval/**/*.py"),
        *root.glob("jobs/**/*.py"),
    ]:
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == "ray" or n.startswith("ray.") for n in names):
                importers.add(path.relative_to(root).as_posix())
    assert importers and all(p.startswith("jobs/on_ray/") for p in importers), sorted(importers)
