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
    "synth.steps",
    "synth.cancel",
    "synth.io",
    "synth.dp",
    "synth.generation",
    "synth.encoder",
    "synth.nlp",
    "synth.calendar",
)
UPPER = ("synth.kinds", "synth.deid", "synth.config")


def module_of(path: Path) -> str:
    """synth/kinds/__init__.py -> synth.kinds."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def known_modules() -> set[str]:
    return {module_of(p) for p in (ROOT / "synth").rglob("*.py")}


def imported(node: ast.AST, known: set[str]) -> list[str] | None:
    """The modules an import statement names: `from synth import plugins` is
    `synth.plugins` where that is a module (read as `synth`, it hid an arrow up: issue
    95), `from synth import ConfigError` is `synth`. None: not an import."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        subs = [f"{node.module}.{a.name}" for a in node.names]
        named = [s for s in subs if s in known]
        rest = len(named) < len(subs)
        return named + ([node.module] if rest or not named else [])
    return None


def imports() -> list[tuple[str, str, str]]:
    """(importing module, imported module, file:line) for every import in synth/."""
    found, known = [], known_modules()
    for path in sorted((ROOT / "synth").rglob("*.py")):
        module = module_of(path)
        for node in ast.walk(ast.parse(path.read_text())):
            names = imported(node, known)
            if names is None:
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


def module_edges() -> dict[str, set[str]]:
    """{module: the library modules it imports}, file by file: `from package import
    name` counts as importing `package.name` where that is a module."""
    known, edges = known_modules(), defaultdict(set)
    for path in sorted((ROOT / "synth").rglob("*.py")):
        module = module_of(path)
        for node in ast.walk(ast.parse(path.read_text())):
            names = imported(node, known)
            if names is None:
                continue
            edges[module] |= {n for n in names if n in known and n != module}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_two_files_of_the_library_import_each_other():
    """Inside every package too (synth.deid's analyzer and anonymizer, its rules): a
    circle of files, however indirect, is found here, not only one between parts."""
    assert circles(module_edges()) == []


def test_an_import_from_the_package_names_its_module():
    known = {"synth", "synth.plugins"}
    read = imported(ast.parse("from synth import plugins, ConfigError").body[0], known)
    assert read == ["synth.plugins", "synth"]
    assert imported(ast.parse("from synth import plugins").body[0], known) == ["synth.plugins"]


def test_the_circle_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_deid_rooms_point_down():
    """The analyzer finds and decides spans, the anonymizer writes their replacements,
    the lexicon is what both read: neither of the first two imports the other, and the
    lexicon imports neither."""
    rooms = ("synth.deid.analyzer", "synth.deid.anonymizer", "synth.deid.lexicon")
    crossing = sorted(
        f"{module} imports {name}"
        for module, names in module_edges().items()
        for name in names
        for a in rooms
        for b in rooms
        if a != b
        and module.startswith(a)
        and name.startswith(b)
        and not (a == "synth.deid.analyzer" and b == "synth.deid.lexicon")
        and not (a == "synth.deid.anonymizer" and b == "synth.deid.lexicon")
    )
    assert crossing == []


LONGEST_FUNCTION = 80  # lines, decorators aside (issue 95)


def long_functions(roots=("synth", "jobs", "eval")) -> list[str]:
    found = []
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > LONGEST_FUNCTION:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {lines}")
    return found


def test_no_library_function_is_longer_than_80_lines():
    assert long_functions() == []


def test_the_length_check_finds_a_long_function(tmp_path, monkeypatch):
    (tmp_path / "long").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(LONGEST_FUNCTION))
    (tmp_path / "long" / "m.py").write_text(f"def f():\n{body}\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert long_functions(("long",)) == ["long/m.py:1 f 81"]
