"""A user's own role list: titles by default, files that fall back, masking with them."""

import pytest

from eval.cv_data import mask_roles
from synth import ConfigError
from synth.kinds.cvs.roles import default_title, read_roles
from synth.kinds.cvs.sections import load_templates


@pytest.mark.parametrize(
    "label, title",
    [
        ("ADVOCATE", "advocate"),
        ("INFORMATION-TECHNOLOGY", "information technology"),
        ("BUSINESS_DEVELOPMENT", "business development"),
        ("HR", "HR"),
        ("BPO", "BPO"),
        ("SAP DEVELOPER", "SAP developer"),
        ("Data Science", "Data Science"),
    ],
)
def test_a_role_without_a_title_gets_its_label_as_one(label, title):
    assert default_title(label) == title


def test_role_files_in_yaml_or_text(tmp_path):
    yaml_file = tmp_path / "roles.yaml"
    yaml_file.write_text("ADVOCATE: lawyer\nCHEF:\n")
    assert read_roles(yaml_file) == {"ADVOCATE": "lawyer", "CHEF": None}
    text_file = tmp_path / "roles.txt"
    text_file.write_text("# my labels\nADVOCATE\n\nCHEF  # kitchen\n")
    assert read_roles(text_file) == {"ADVOCATE": None, "CHEF": None}
    yaml_file.write_text("[Advocate, ADVOCATE]\n")
    with pytest.raises(ConfigError, match="differ only in case"):
        read_roles(yaml_file)
    with pytest.raises(ConfigError, match="--roles .*missing.yaml: file not found"):
        read_roles(tmp_path / "missing.yaml")


def test_a_taxonomy_dir_with_only_roles_yaml_uses_the_embedded_sections(tmp_path):
    (tmp_path / "roles.yaml").write_text("ADVOCATE: trial lawyer\n")
    own = load_templates(tmp_path)
    assert own.sections == load_templates().sections
    assert own.title("ADVOCATE") == "trial lawyer" and own.title("AGRICULTURE") == "agriculture"
    with pytest.raises(ConfigError, match="taxonomy_dir .*: not a folder"):
        load_templates(tmp_path / "nowhere")


def test_masked_rows_hide_the_titles_generation_used(tmp_path):
    (tmp_path / "roles.yaml").write_text("ADVOCATE: trial lawyer\n")
    text = ["I am a trial lawyer. Trial lawyers argue cases; ADVOCATE."]
    assert mask_roles(text, ["ADVOCATE"], str(tmp_path)) == [
        "I am a worker. worker argue cases; worker."
    ]
    # The embedded titles do not know this one: it would stay in the 'masked' text.
    assert "trial lawyer" in mask_roles(text, ["ADVOCATE"])[0]


def test_a_roles_skills_are_planted_in_its_cvs_skills_section(tmp_path):
    """Skills are public words the user gives per role, planted in the skills section;
    a role without them plants none, and its fallback lines take the general words of
    synth/data/cv/fallback_words.yaml (issue 81: every section can be written from data)."""
    import numpy as np

    from synth.kinds.cvs.plan import assemble
    from synth.kinds.cvs.role_words import general_words
    from synth.kinds.cvs.roles import read_role_skills

    roles = tmp_path / "roles.yaml"
    roles.write_text(
        "DBA:\n  title: database administrator\n  skills: [backup and recovery, SQL Server, "
        "performance tuning, replication, Oracle RAC, T-SQL]\n  duties: [tuned slow queries, "
        "planned backups]\nCHEF: head chef\n"
    )
    assert read_roles(roles) == {"DBA": "database administrator", "CHEF": "head chef"}
    assert read_role_skills(roles)["DBA"][0] == "backup and recovery"
    templates = load_templates(_folder_with(tmp_path, roles))
    persona = {"name": "Ann Lee", "email": "a@x.org", "nationality": "US", "country": "US"}
    persona["country_code"] = "DE"
    values = {"role": "DBA", "total_years": "4 years", "city": "Austin"}
    values |= {"company_1": "Acme", "years_1": "2 years"}
    body, _, fallbacks = assemble(templates, values, persona, np.random.default_rng(0))
    assert len(fallbacks) == body.count("<generate>") and all(fallbacks)
    skills_line = next(line for line in body.splitlines() if "kills: " in line)
    planted = skills_line.split(": ", 1)[1].removesuffix("<generate>").rstrip(", ").split(", ")
    assert len(planted) == 5 and set(planted) <= set(read_role_skills(roles)["DBA"])
    # the one skill not planted is what the skills section's fallback adds
    left = set(read_role_skills(roles)["DBA"]) - set(planted)
    assert any(next(iter(left)) in f for f in fallbacks)
    assert "German (native) and English (fluent)" in body
    assert "Tuned slow queries" in body or "Planned backups" in body
    chef, _, chef_fallbacks = assemble(
        templates, {**values, "role": "CHEF"}, persona, np.random.default_rng(1)
    )
    assert "kills: <generate>" in chef
    general = general_words()
    assert any(w in " ".join(chef_fallbacks) for w in general["skills"])
    assert any(d in chef for d in general["duties"])
    roles.write_text("DBA:\n  title: dba\n  skils: [x]\n")
    with pytest.raises(ConfigError, match="takes a title, or 'title:', 'skills:' and 'duties:'"):
        read_roles(roles)


def _folder_with(tmp_path, roles):
    folder = tmp_path / "taxonomy"
    folder.mkdir()
    (folder / "roles.yaml").write_text(roles.read_text())
    return folder
