"""The recipes of docs/extending.md keep the tests green: each test copies the tree, adds
the extension as the recipe says (a file of data, an edit in the tree), and runs, in the
copy, the fast tier's checks of what the extension touches. A method is the installed
package tests/test_extensions.py runs (tests/extensions/pseudonyms)."""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns(
    ".git", ".venv*", "out", "__pycache__", ".pytest_cache", "*.egg-info", ".ruff_cache"
)
PARKING = "Ask information_Parking"


def tree_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT, copy, ignore=SKIP)
    return copy


def in_copy(copy: Path, *argv: str) -> subprocess.CompletedProcess:
    """A command run in the copy, whose own synth/ is imported (not this checkout's)."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run(
        [sys.executable, *argv], cwd=copy, env=env, capture_output=True, text=True, check=False
    )


def test_a_subcategory_added_as_data_keeps_the_tests_green(tmp_path):
    """Recipe 7: one YAML file in synth/data/taxonomy/; the taxonomy's checks, planning,
    the scripted goldens and the roles by context stay green, and its tickets are written."""
    copy = tree_copy(tmp_path)
    taxonomy = copy / "synth" / "data" / "taxonomy"
    source = (taxonomy / "accommodation.yaml").read_text()
    added = source.replace("Ask information_Accommodation", PARKING).replace(
        "id: acc_", "id: park_"
    )
    (taxonomy / "parking.yaml").write_text(added)
    checks = [
        "tests/synth/kinds/tickets/test_taxonomy.py",
        "tests/synth/kinds/test_planning.py",
        "tests/synth/test_golden.py",
        "tests/synth/deid/test_roles.py",
    ]
    done = in_copy(
        copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
        "-k", "not real_model and not ctranslate2", *checks,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    written = in_copy(
        copy,
        "-c",
        textwrap.dedent(f"""
            from tests.synth.test_golden import ScriptedEngine, run
            rows = run("configs/tickets.yaml", 8, 3, ScriptedEngine(), labels=[{PARKING!r}])
            print(sorted({{r["label"] for r in rows}}), len(rows))
        """),
    )
    assert written.returncode == 0, written.stderr[-3000:]
    assert written.stdout.strip().splitlines()[-1] == f"[{PARKING!r}] 8"


TYPICAL_P = """
    # Keep the smallest set of candidates whose typicality mass reaches typical_p (1: off).
    typical_p: TopP = field(default=1.0, metadata=request(1.0))
"""


def test_a_sampling_parameter_reaches_a_client_with_no_edit_to_the_server(tmp_path):
    """Recipe 8: the field in synth/generation/params.py (with its request mark and its
    off value in OPTIONAL), the backends that honour it in their SAMPLING; the server,
    untouched, takes it from a request and refuses it where its backend lacks it, and a
    backend that lacks it refuses it in one line."""
    copy = tree_copy(tmp_path)
    params = copy / "synth" / "generation" / "params.py"
    text = params.read_text()
    anchor = "    repetition_penalty: Penalty = field(default=1.2, metadata=request(1.0))\n"
    assert anchor in text
    text = text.replace(anchor, anchor + TYPICAL_P.lstrip("\n"))
    text = text.replace('    "min_p": 0.0,\n', '    "min_p": 0.0,\n    "typical_p": 1.0,\n', 1)
    params.write_text(text)
    server = (copy / "synth" / "generation" / "server.py").read_bytes()
    probe = textwrap.dedent("""
        import pytest
        from synth import ConfigError
        from synth.generation.params import params_from
        from synth.generation.server import Rejected, params_of
        from synth.generation import ct2_engine
        assert params_of({"typical_p": 0.9}, sampling={"typical_p"}).typical_p == 0.9
        assert params_of({}, sampling=set()).typical_p == 1.0
        with pytest.raises(Rejected, match="typical_p is not supported by the engine"):
            params_of({"typical_p": 0.9}, sampling=set())
        with pytest.raises(Rejected, match="typical_p"):
            params_of({"typical_p": 1.5}, sampling={"typical_p"})
        with pytest.raises(ConfigError, match="typical_p is not supported by backend ct2"):
            ct2_engine.check_params(params_from("default", {"typical_p": 0.9}))
        print("ok")
    """)
    done = in_copy(copy, "-c", probe)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]
    checks = [
        "tests/synth/generation/test_server_limits.py",
        "tests/synth/generation/test_backends.py",
    ]
    done = in_copy(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", *checks)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert (copy / "synth" / "generation" / "server.py").read_bytes() == server
