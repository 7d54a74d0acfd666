"""Imports point down only (docs/architecture.md): the library never imports evaluation
or the jobs; its foundations never import document kinds, de-identification or config;
and no two parts of the library import each other, however indirectly. Every import
counts, the ones inside functions too."""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOUNDATIONS = (
    "synth.record",
    "synth.contract",
    "synth.typed",
    "synth.plugins",
    "synth.io",
    "synth.dp",
    "synth.generation",
    "synth.encoder",
    "synth.nlp",
    "synth.calendar",
)
UPPER = ("synth.kinds", "synth.deid", "synth.config")


def imports() -> list[tuple[str, str, str]]:
    """(importing module, imported module, file:line) for every import in synth/."""
    found = []
    for path in sorted((ROOT / "synth").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            found += [(module, name, where) for name in names]
    return found


def part(module: str) -> str:
    """synth.kinds.tickets.plan -> synth.kinds: the unit layers are drawn between."""
    return ".".join(module.split(".")[:2])


def test_the_library_never_imports_evaluation_or_jobs():
    upward = [w for _, name, w in imports() if name.split(".")[0] in ("eval", "jobs")]
    assert upward == []


def test_foundations_never_import_kinds_deid_or_config():
    upward = [
        f"{w} imports {name}"
        for module, name, w in imports()
        if module.startswith(FOUNDATIONS) and name.startswith(UPPER)
    ]
    assert upward == []


def test_no_two_parts_of_the_library_import_each_other():
    edges = defaultdict(set)
    for module, name, _ in imports():
        if name.startswith("synth.") and part(name) != part(module):
            edges[part(module)].add(part(name))

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo += edges[node]
        return False

    cycles = sorted((a, b) for a in list(edges) for b in edges[a] if reaches(b, a))
    assert cycles == []
