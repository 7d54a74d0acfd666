import pytest

from synth import ConfigError
from synth.taxonomy import load_taxonomy, resolve_label

DESIGN_LABELS = {
    "Ask information_Accommodation": {"location", "duration"},
    "Complaint_Complaint": {"complaint", "to_who"},
    "Timetable change_Shift change": {"date", "reason_of_change"},
    "Salary_Salary raise": {"salary", "increase_in_percentage", "work_title"},
    "Salary_Gender pay gap": {"wage_gap"},
    "Life event_Health issues": {"date_start_absence", "number_of_days", "reason"},
    "Life event_Personal issues": {"description_life_event", "number_of_days"},
    "Refund_Refund travel": {"location", "date_travel", "airport"},
}


def test_embedded_taxonomy_matches_design():
    taxonomy = load_taxonomy()
    assert {k: set(v.variables) for k, v in taxonomy.items()} == DESIGN_LABELS
    for sub in taxonomy.values():
        assert len(sub.templates) >= 4
        assert all(1 <= t.slots <= 3 for t in sub.templates)
        assert sub.headers and sub.subjects


def write(tmp_path, body, variables="[location]"):
    (tmp_path / "x.yaml").write_text(
        "label: A_B\ndescription: d\nsampler: accommodation\n"
        f"variables: {variables}\nheaders: ['To: x']\nsubjects: ['s']\n"
        f"templates:\n  - id: t1\n    body: \"{body}\"\n")
    return tmp_path


def test_undeclared_variable_is_named(tmp_path):
    with pytest.raises(ConfigError, match=r"undeclared variable.*'locaton'"):
        load_taxonomy(write(tmp_path, "in ${locaton} <generate>"))


def test_template_needs_a_slot(tmp_path):
    with pytest.raises(ConfigError, match="0 <generate> slots"):
        load_taxonomy(write(tmp_path, "in ${location}"))


def test_malformed_yaml_names_the_line(tmp_path):
    (tmp_path / "bad.yaml").write_text("label: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML at line"):
        load_taxonomy(tmp_path)


def test_labels_match_case_insensitively():
    taxonomy = load_taxonomy()
    assert resolve_label(taxonomy, "salary_salary RAISE") == "Salary_Salary raise"
    with pytest.raises(ConfigError, match="unknown label 'Salary_Bonus'"):
        resolve_label(taxonomy, "Salary_Bonus")
