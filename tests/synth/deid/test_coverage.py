"""What `deidentify` says its detectors find is measured on the forms people write, and
measured again when a detector plugin's code changes (issue 84: PHONE, DATE, MONEY,
LOCATION and EMAIL were called fully found while `+44 7700 900123` after a sign-off
name, `5th Feb`, `CHF 8,200`, `1.2 lakh rupees`, `Flat 3, 27 Rue de la Paix` and
`dana [at] example [dot] com` were written as they stood; a plugin's changed code kept
its cached coverage)."""

import importlib.metadata
import sys

import pytest

from synth.deid import coverage

FORMS = {
    "PHONE": "+44 7700 900123",  # after a sign-off name
    "DATE": "5th Feb",
    "MONEY": ["CHF 8,200", "1.2 lakh rupees", "3 crore"],
    "LOCATION": "Flat 3, 27 Rue de la Paix",
    "EMAIL": "dana [at] example [dot] com",
}


def test_the_forms_people_write_are_planted_and_presidio_finds_every_one(presidio_detectors):
    planted = coverage.examples()
    for kind, values in FORMS.items():
        for value in [values] if isinstance(values, str) else values:
            assert value in {item["value"] for item in planted[kind]}, (kind, value)
    assert any(
        i["value"] == "+44 7700 900123" and i["text"].startswith("Thanks, Dana")
        for i in planted["PHONE"]
    )
    shares = coverage.measure(presidio_detectors)
    assert {kind: shares[kind] for kind in FORMS} == dict.fromkeys(FORMS, 1.0)
    assert len(planted["HEALTH"]) >= 7  # sick notes among them
    assert shares["HEALTH"] < 1  # measured, as it is: presidio misses sick notes' terms


def test_a_type_is_found_only_when_every_form_is():
    said = coverage.summary({"EMAIL": 0.75, "PHONE": 1.0, "OCCUPATION": 0.0})
    assert said["in_part"] == ["EMAIL"] and said["not_found"] == ["OCCUPATION"]


def test_a_detector_plugin_whose_code_changes_is_measured_again(tmp_path, monkeypatch):
    package = tmp_path / "badge_detector"
    package.mkdir()
    (package / "__init__.py").write_text("class D:\n    TYPES = ('ID',)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("HRSYNTH_CACHE", str(tmp_path / "cache"))
    point = importlib.metadata.EntryPoint("badges", "badge_detector:D", "hrsynth.detectors")
    real = importlib.metadata.entry_points

    def entry_points(group=None, **kw):
        return [point] if group == "hrsynth.detectors" else real(group=group, **kw)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    first = coverage._cache_path(["presidio", "badges"], None, "kind")
    assert coverage._cache_path(["presidio", "badges"], None, "kind") == first  # stable
    (package / "__init__.py").write_text("class D:\n    TYPES = ('ID', 'OCCUPATION')\n")
    assert coverage._cache_path(["presidio", "badges"], None, "kind") != first
    assert "badge_detector" not in sys.modules  # hashed without being imported


@pytest.mark.parametrize("value", ["dana [at] example [dot] com", "j.ortiz(at)mail(dot)org"])
def test_an_obfuscated_email_is_replaced(presidio_detectors, value):
    from synth.deid.pipeline import deidentify

    text = f"Write to {value} instead, the other inbox is full."
    result = deidentify(["d0"], [text], presidio_detectors, "tag", seed=0)[0]
    assert "example" not in result.text and "ortiz" not in result.text, result.text
