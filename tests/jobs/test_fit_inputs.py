"""`hrsynth fit` on bad input a new user would try: one line on stderr, exit 2, naming
the flag or column and the fix, before any private row is modelled."""

import pytest
import yaml

from jobs import fit as fit_job

SCHEMA = {
    "attributes": {
        "team": {"type": "categorical", "values": [1, 2, 3]},
        "site": {"type": "categorical", "values": ["Zürich", "Köln"]},
    }
}
ROWS = "team,site\n1,Zürich\n2,Köln\n3,Zürich\n1,Köln\n"


def _fit(tmp_path, capsys, rows=ROWS, encoding="utf-8", schema=SCHEMA, epsilon="1"):
    (tmp_path / "private.csv").write_bytes(rows.encode(encoding))
    (tmp_path / "schema.yaml").write_text(yaml.safe_dump(schema))
    code = fit_job.main(
        [
            "--data",
            str(tmp_path / "private.csv"),
            "--schema",
            str(tmp_path / "schema.yaml"),
            "--epsilon",
            epsilon,
            "--output",
            str(tmp_path / "model.json"),
        ]
    )
    err = capsys.readouterr().err.strip()
    return code, err


@pytest.mark.parametrize("epsilon", ["inf", "1e308", "nan", "0", "-1"])
def test_an_epsilon_that_protects_nobody_is_refused(tmp_path, capsys, epsilon):
    code, err = _fit(tmp_path, capsys, epsilon=epsilon)
    assert code == 2 and err.startswith("error: --epsilon must be a number in (0, 10000]")
    assert "\n" not in err


def test_a_latin1_table_is_named_and_read_once_the_schema_says_so(tmp_path, capsys):
    code, err = _fit(tmp_path, capsys, encoding="latin-1")
    assert code == 2 and "\n" not in err
    assert err.startswith(f"error: --data {tmp_path / 'private.csv'}: not utf-8 text")
    assert "set 'encoding:' in the schema (e.g. latin-1)" in err
    code, err = _fit(tmp_path, capsys, encoding="latin-1", schema={**SCHEMA, "encoding": "latin-1"})
    assert code == 0 and err == ""


def test_an_unknown_encoding_is_named(tmp_path, capsys):
    code, err = _fit(tmp_path, capsys, schema={**SCHEMA, "encoding": "klingon"})
    assert code == 2 and "unknown encoding 'klingon'" in err


def test_empty_cells_are_counted_as_missing_per_column(tmp_path, capsys):
    """A column of codes with empty cells used to turn into floats ('1.0') and every row
    was reported outside the domain."""
    code, err = _fit(tmp_path, capsys, rows="team,site\n1,Zürich\n,Köln\n3,\n,Köln\n")
    assert code == 2 and err == (
        "error: empty cells (of 4 rows) in column(s) 'site': 1, 'team': 2; fill them or "
        "drop those rows: a missing value is not in any domain"
    )
    code, err = _fit(tmp_path, capsys, rows="team,site\n1,Zürich\n2,Köln\n3,Zürich\n")
    assert code == 0, err


ROLE_SCHEMA = {
    "attributes": {
        "role": {"type": "categorical", "values": ["Advocate", "HR"]},
        "site": {"type": "categorical", "values": ["Zürich", "Köln"]},
    }
}
OWN_ROLES = "role,site\nNURSE,Zürich\nCHEF,Köln\nNURSE,Köln\nchef,Zürich\n"


def test_a_corpus_with_its_own_roles_is_refused_naming_roles_then_fits_with_it(tmp_path, capsys):
    """Issue 81: `fit --schema configs/cv_schema.yaml` on one's own CV table said '4
    value(s) outside the declared domain' and named no fix that fits a corpus."""
    code, err = _fit(tmp_path, capsys, rows=OWN_ROLES, schema=ROLE_SCHEMA)
    assert code == 2 and "\n" not in err
    assert "column 'role': 4 row(s) have a role the schema" in err
    assert "--roles FILE" in err and "NURSE" not in err  # counts only, never a label
    (tmp_path / "roles.txt").write_text("Nurse\nChef\n")
    code = fit_job.main(
        ["--data", str(tmp_path / "private.csv"), "--schema", str(tmp_path / "schema.yaml")]
        + ["--epsilon", "1", "--roles", str(tmp_path / "roles.txt")]
        + ["--output", str(tmp_path / "model.json")]
    )
    assert code == 0, capsys.readouterr().err
    import json

    model = json.loads((tmp_path / "model.json").read_text())
    assert model["fit"]["roles_file"] == str(tmp_path / "roles.txt")
    assert model["schema"]["attributes"]["role"]["values"] == ["Nurse", "Chef"]


@pytest.mark.parametrize(
    "name, content, says",
    [
        ("roles.txt", b"\x89PNG\r\n\x1a\n\x00\xff\xfe" * 50, "is not UTF-8 text (line 1, byte 1"),
        ("roles.yaml", b"- Nurse\n- Chef\n- \xff\xfe\n", "is not UTF-8 text (line 3, byte 3"),
        ("roles.txt", b"".join(b"Role %d\n" % i for i in range(100_000)), "bytes, more than"),
        ("roles.txt", b"".join(b"R%d\n" % i for i in range(1_001)), "1,001 roles, more than"),
    ],
)
def test_a_binary_or_huge_roles_file_is_one_line_at_once(tmp_path, capsys, name, content, says):
    """Issue 94: a binary --roles file gave a 29-line UnicodeDecodeError (ROL2); a 10 MB
    one of 100,000 lines printed nothing for 120 s (ROL3: a quadratic check of case twins)."""
    (tmp_path / name).write_bytes(content)
    (tmp_path / "private.csv").write_text(OWN_ROLES)
    (tmp_path / "schema.yaml").write_text(yaml.safe_dump(ROLE_SCHEMA))
    code = fit_job.main(
        ["--data", str(tmp_path / "private.csv"), "--schema", str(tmp_path / "schema.yaml")]
        + ["--epsilon", "1", "--roles", str(tmp_path / name)]
        + ["--output", str(tmp_path / "model.json")]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and says in err, err
    assert err.startswith(f"error: --roles {tmp_path / name}")
    assert not (tmp_path / "model.json").exists()
