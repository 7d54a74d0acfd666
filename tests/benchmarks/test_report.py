"""Every result a benchmark writes names who measured it: machine, commit, date, command."""

import datetime as dt
import json
import re
import sys

from benchmarks.report import ROOT, write_results


def test_a_result_names_its_machine_commit_date_and_command(tmp_path, monkeypatch):
    script = str(ROOT / "benchmarks" / "deid" / "detector.py")
    monkeypatch.setattr(sys, "argv", [script, "--step", "x y"])
    path = write_results(tmp_path / "r.json", {"rows": [1]})
    doc = json.loads(path.read_text())
    assert doc["rows"] == [1]
    made = doc["provenance"]
    assert made["command"] == "python -m benchmarks.deid.detector --step x y"
    assert made["machine"]["cpu_kind"] in ("AVX-512 BF16", "AVX-512", "AVX2", "x86_64", "aarch64")
    assert made["machine"]["cpu"] and made["machine"]["cores"] >= 1
    assert made["commit"] is None or re.fullmatch(r"[0-9a-f]{40}(-dirty)?", made["commit"])
    assert dt.datetime.fromisoformat(made["date"]).tzinfo is not None


def test_a_list_is_written_as_it_is(tmp_path):
    path = write_results(tmp_path / "r.json", [1, 2])
    assert json.loads(path.read_text()) == [1, 2]


def test_the_benchmarks_readme_names_every_results_file():
    """A results file nobody can find from the index is a number nobody can check."""
    readme = (ROOT / "benchmarks" / "README.md").read_text()
    files = sorted(p.name for p in (ROOT / "benchmarks" / "results").iterdir())
    assert [name for name in files if f"`{name}" not in readme] == []
