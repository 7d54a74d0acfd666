"""notebooks/explore.ipynb runs headless, top to bottom, on a refresh root, and writes its plots."""

import nbformat
from nbclient import NotebookClient

from synth.io import versions
from tests.conftest import ROOT

PLOTS = {"label_counts.png", "text_lengths.png", "entity_coverage.png", "intrinsic.png"}


def test_notebook_executes_and_writes_its_plots(refreshed, tmp_path, monkeypatch):
    latest = versions.read_latest(refreshed["root"])["version"]
    monkeypatch.setenv("HRSYNTH_DATA", refreshed["root"])  # the notebook follows `latest`
    monkeypatch.setenv("HRSYNTH_EVAL", str(refreshed["folder"] / latest / "eval"))
    monkeypatch.setenv("HRSYNTH_PLOTS", str(tmp_path / "plots"))
    notebook = nbformat.read(ROOT / "notebooks" / "explore.ipynb", as_version=4)
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    assert {p.name for p in (tmp_path / "plots").iterdir()} == PLOTS
    assert all(p.stat().st_size > 5000 for p in (tmp_path / "plots").iterdir())
    outputs = "".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
        for cell in notebook.cells
        if cell.cell_type == "code"
        for o in cell.outputs
    )
    assert "8 documents from" in outputs and latest in outputs
    assert "spent" in outputs and "conditional counts" in outputs  # the ε ledger
    assert not any(
        o.output_type == "error" for c in notebook.cells if c.cell_type == "code" for o in c.outputs
    )
