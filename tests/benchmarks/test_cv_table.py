"""benchmarks/cvs/cv_table.py: Table 2 with its synthetic rows replaced by evaluate runs."""

import json

from benchmarks.cvs import cv_table


def metrics(folder, fasttext, encoder, documents, counts=None):
    folder.mkdir(parents=True)
    result = {
        "tasks": {"fasttext": {"weighted_f1": fasttext}, "classify": {"weighted_f1": encoder}},
        "train": {"documents": documents, "manifest": {"rows_per_label": counts}},
        "config": {"epochs": 10},
    }
    (folder / "metrics.json").write_text(json.dumps(result))


def test_synthetic_rows_are_replaced_and_the_others_kept(tmp_path):
    experiment = tmp_path / "experiment"
    experiment.mkdir()
    rows = [
        {"condition": "real", "scores": {"fastText": 0.5, "encoder": 0.7}, "training_documents": 9},
        {"condition": "synthetic ε=1", "scores": {"encoder": 0.1}, "training_documents": 4},
        {"condition": "synthetic ε=10", "scores": {"encoder": 0.2}, "training_documents": 4},
    ]
    table = {"corpus": {"cvs": 15, "roles": 2, "train": 9, "test": 6}, "rows": rows}
    (experiment / "table.json").write_text(json.dumps({**table, "settings": {}}))
    metrics(tmp_path / "e1", 0.3, 0.6, 8, {"a": 3, "b": 5})
    out = tmp_path / "out"
    cv_table.main(
        [
            "--experiment",
            str(experiment),
            "--row",
            f"synthetic ε=1={tmp_path / 'e1'}",
            "--output",
            str(out),
        ]
    )
    done = json.loads((out / "table.json").read_text())
    assert [r["condition"] for r in done["rows"]] == ["real", "synthetic ε=1"]
    assert done["rows"][1]["scores"] == {"fastText": 0.3, "encoder": 0.6}
    assert done["rows"][1]["role_spread"] == {"roles_drawn": 2, "roles": 2, "fewest": 3, "most": 5}
    assert "| synthetic ε=1 | 8 | 0.300 | 0.600 |" in (out / "table.md").read_text()
