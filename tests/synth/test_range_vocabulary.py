"""One definition of each constrained type (issue 73): `Positive` and `Count` were
defined three times (the options, the config sections, the decoding parameters), so a
bound changed in one place would silently differ in the others."""

import ast
from pathlib import Path

from synth import typed
from synth.config import option_types, sections
from synth.generation import params

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Positive", "Count", "PositiveNumber", "NonNegativeNumber", "Share", "OpenShare")


def test_every_module_uses_synth_typed_s_own_types():
    for module in (option_types, sections, params):
        for name in NAMES:
            if hasattr(module, name):
                assert getattr(module, name) is getattr(typed, name), (module.__name__, name)


def test_no_library_module_defines_them_again():
    defined = []
    for path in sorted((ROOT / "synth").rglob("*.py")) + sorted((ROOT / "jobs").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                defined += [(str(path.relative_to(ROOT)), t) for t in targets if t in NAMES]
    assert sorted(defined) == sorted(("synth/typed.py", name) for name in NAMES)
