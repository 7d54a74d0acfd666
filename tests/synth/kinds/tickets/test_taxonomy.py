import pytest

from synth import ConfigError
from synth.kinds.tickets.taxonomy import load_taxonomy, resolve_label
from tests.taxonomy_design import DESIGN_LABELS


def test_embedded_taxonomy_holds_the_design():
    """The eight design subcategories with their variables, their templates as written
    for them (ten or more, both registers, the first release's four); any other the
    taxonomy holds is an extension (docs/extending.md), checked below."""
    taxonomy = load_taxonomy()
    assert {k: set(taxonomy[k].variables) for k in DESIGN_LABELS if k in taxonomy} == DESIGN_LABELS
    for label in DESIGN_LABELS:
        sub = taxonomy[label]
        assert len(sub.templates) >= 10
        assert {t.register for t in sub.templates} == {"formal", "informal"}
        assert sum(t.classic for t in sub.templates) == 4


def test_every_subcategory_of_the_taxonomy_can_be_written():
    for sub in load_taxonomy().values():
        assert sub.templates
        assert all(1 <= t.slots <= 3 for t in sub.templates)
        assert sub.headers and sub.subjects
        assert sub.label_variable in sub.variables
        # with omission on, some template writes only the label's variable
        assert any(sub.uses(t) == {sub.label_variable} for t in sub.templates)


def write(tmp_path, body, variables="[location]"):
    (tmp_path / "x.yaml").write_text(
        "label: A_B\ndescription: d\nsampler: accommodation\n"
        f"variables: {variables}\nheaders: ['To: x']\nsubjects: ['s']\n"
        f'templates:\n  - id: t1\n    body: "{body}"\n'
    )
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


def write_doc(tmp_path, extra: str, template_extra: str = ""):
    (tmp_path / "x.yaml").write_text(
        "label: A_B\ndescription: d\nsampler: accommodation\n"
        f"variables: [location, duration]\nheaders: ['To: x']\nsubjects: ['s']\n{extra}"
        f"templates:\n  - id: t1\n    body: 'in ${{location}} <generate>'\n{template_extra}"
    )
    return tmp_path


def test_the_label_variable_is_never_omitted(tmp_path):
    doc = "label_variable: location\nomission: {location: 0.2}\n"
    with pytest.raises(ConfigError, match="the variable that carries the label is never left"):
        load_taxonomy(write_doc(tmp_path, doc))


def test_omission_needs_known_variables_and_shares(tmp_path):
    with pytest.raises(ConfigError, match="omission names 'city'"):
        load_taxonomy(write_doc(tmp_path, "label_variable: location\nomission: {city: 0.2}\n"))
    with pytest.raises(ConfigError, match="omission of 'duration' must be a share"):
        load_taxonomy(write_doc(tmp_path, "label_variable: location\nomission: {duration: 1}\n"))


def test_template_register_and_keys_are_checked(tmp_path):
    with pytest.raises(ConfigError, match="register 'rude'"):
        load_taxonomy(write_doc(tmp_path, "", "    register: rude\n"))
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \['greting'\]"):
        load_taxonomy(write_doc(tmp_path, "", "    greting: Hi\n"))
    with pytest.raises(ConfigError, match=r"undeclared variable\(s\) \['nme'\]"):
        load_taxonomy(write_doc(tmp_path, "", "    sign_off: 'Bye ${nme}'\n"))
