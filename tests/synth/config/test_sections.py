"""Nested config files read as the flat ones did: same record, same fingerprint, so an
output begun under the first release's keys still resumes, and old files keep working."""

from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from synth import ConfigError
from synth.config.flat import FLAT_KEYS
from synth.config.generate import GenerateConfig, file_settings, load_config, nested
from synth.config.sections import sections

ROOT = Path(__file__).resolve().parents[3]
FIXED = {"reference_date": "2026-11-22", "dp_model": "no/such/model.json"}
# Each shipped config's fingerprint with FIXED, computed by the flat GenerateConfig of
# 92f611c (before sections) from the flat files of that commit.
FLAT_ERA = {
    "cvs.yaml": "c6f6952a41ab89ce4338a669acc488f6ad7146a5d772dc756dd58da2052fe01b",
    "tickets.yaml": "fed3111274ade2126d90c8a958ba3069cb5abee01a6d810e2ed7572891a54c1b",
    "tickets_classic.yaml": "f7f80da3dfa2e767c3bab92d82f9d52db8b4b84403df5138de0117f7a0361355",
    "tickets_mixed.yaml": "0e91824d697e401098193ee69c061ab2f72ee10dceb8eb87a60cb64b4f2b1603",
    "tickets_served.yaml": "4bcfda21793bbebda531d15811077a28b3e5efbd2b5e50af17002c0db8cd7f39",
    "tickets_served_cluster.yaml": (
        "253b659788387cba883e0aa7c04ad3d252c1398bba21ff46cf342d14cf832c37"
    ),
}


def test_every_section_field_has_exactly_one_flat_key():
    placed = {(s, f.name) for s, cls in sections().items() for f in fields(cls) if s != "audit"}
    mapped = {where for where in FLAT_KEYS.values() if where[1] is not None}
    assert placed == mapped
    assert len(FLAT_KEYS) == len(mapped) + 1  # + pii_audit, the whole audit block


# Settings a shipped config gained after the flat era (issue 54: the default writes text
# as people type it): the flat-era fingerprint holds without them.
ADDED_SINCE = {
    "tickets.yaml": [("tickets", "traits", "run_together"), ("tickets", "traits", "line_breaks")],
    # issue 81: CV slots drawn up to 5 times before their fallback line
    "cvs.yaml": [("generator", "generation", "max_retries")],
}


@pytest.mark.parametrize("name", sorted(FLAT_ERA))
def test_shipped_configs_keep_their_flat_era_fingerprint(name, capsys, tmp_path, monkeypatch):
    path = ROOT / "configs" / name
    if name in ADDED_SINCE:
        doc = yaml.safe_load(path.read_text())
        for *where, key in ADDED_SINCE[name]:
            block = doc
            for step in where:
                block = block[step]
            del block[key]
        path = tmp_path / name
        path.write_text(yaml.safe_dump(doc))
    # the flat era's planner (CVs plan their role words since issue 81: version 3)
    monkeypatch.setattr("synth.kinds.KIND_PLANNER_VERSIONS", {})
    cfg = load_config(str(path), FIXED)
    assert cfg.fingerprint() == FLAT_ERA[name]
    assert capsys.readouterr().err == ""  # the shipped files are nested: no notice


@pytest.mark.parametrize("name", sorted(FLAT_ERA))
def test_a_flat_file_reads_as_its_nested_twin_with_a_one_line_notice(name, tmp_path, capsys):
    nested_cfg = load_config(str(ROOT / "configs" / name), FIXED)
    flat_file = tmp_path / name
    flat_file.write_text(yaml.safe_dump(file_settings(str(ROOT / "configs" / name))))
    flat_cfg = load_config(str(flat_file), FIXED)
    assert flat_cfg == nested_cfg
    assert list(flat_cfg.to_dict()) == list(FLAT_KEYS)  # the record keeps its order
    notice = capsys.readouterr().err.strip()
    assert "flat keys are deprecated" in notice and "\n" not in notice
    assert "num_docs -> run.num_docs" in notice or "-> run." in notice


def test_the_record_round_trips_through_flat_and_nested():
    cfg = load_config(str(ROOT / "configs" / "tickets.yaml"), FIXED | {"pii_audit": {}})
    again = GenerateConfig.from_flat(cfg.to_dict())
    assert again == cfg
    assert load_config(None, {k: v for k, v in cfg.to_dict().items()}) == cfg
    doc = nested(cfg.to_dict())
    assert set(doc) <= set(sections()) and doc["run"]["num_docs"] == 64
    assert cfg.updated(seed=5).run.seed == 5 and cfg.run.seed == 0


def test_the_audit_block_is_recorded_as_given():
    cfg = load_config(None, {"pii_audit": {"policy": "drop"}})
    assert cfg.to_dict()["pii_audit"] == {"policy": "drop"}
    assert load_config(None).to_dict()["pii_audit"] == {}
    settings = cfg.audit_settings()
    assert settings.policy == "drop" and "EMAIL" in settings.types


@pytest.mark.parametrize(
    "text,message",
    [
        ("num_doc: 3\n", r"unknown setting\(s\) \['num_doc'\] \(did you mean run.num_docs\?\)"),
        ("run: {num_doc: 3}\n", r"run: unknown setting\(s\) \['num_doc'\]"),
        ("num_docs: 3\nrun: {num_docs: 4}\n", "run.num_docs is given twice"),
        ("run: 3\n", "run: must be a mapping of settings"),
        (
            "cvs: {roles: uniform}\nrun: {doc_type: cv}\n",
            "cvs.roles must be 'dp_model', 'balanced', got 'uniform'",
        ),
        ("scale: {batch_size: '8'}\n", "scale.batch_size must be an integer, got '8'"),
        ("audit: {policy: erase}\n", "pii_audit.policy 'erase' unknown"),
    ],
)
def test_bad_files_name_the_setting(text, message, tmp_path):
    (tmp_path / "c.yaml").write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(str(tmp_path / "c.yaml"))
