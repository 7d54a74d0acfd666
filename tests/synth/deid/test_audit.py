"""The personal-data audit of generated text, with Presidio: every planted leak found, a
leak-free control flagged nowhere, and each policy's effect on the row (offsets exact)."""

import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.deid.analyzer.analyze import Analyze, found_in
from synth.deid.audit import DROPPED, AuditSettings, audit_rows, merge_counts, planted

PERSONA = {
    "name": "Paul Martin",
    "first_name": "Paul",
    "email": "paul.martin@acme.com",
    "company": "Acme",
}
LEAKS = {
    "EMAIL": "jane.doe@example.org",
    "PHONE": "+44 20 7946 0958",
    "ID": "DE89 3704 0044 0532 0130 00",
    "URL": "https://www.example.com/jobs",
    "PERSON": "Maria Rossi",
}


def row(i: int, text: str) -> dict:
    """A ticket whose location entity is 'Lyon' and whose persona signs it."""
    start = text.index("Lyon")
    entity = {
        "start": start,
        "end": start + 4,
        "label": "location",
        "value": "Lyon",
        "match": "exact",
    }
    return {"id": f"r{i}", "text": text, "entities": [entity], "persona": PERSONA, "error": None}


CONTROL = [
    row(0, "Hi HR, I will be in Lyon next week for the audit. Thanks, Paul Martin"),
    row(1, "Dear team, can Acme book a hotel in Lyon? Reply to paul.martin@acme.com. Paul"),
    row(2, "Hello, my manager approved the trip to Lyon. Best regards, Paul"),
    # salutations spaCy reads as names, an ellipsis run into a word (synth/data/deid/audit.yaml)
    row(3, "Dear Sir or Madam, the Lyon trip is on..so please book it. Cheers, Paul"),
    # colleagues hrsynth's own clauses name (synth/data/clauses/grammar/aside.yaml)
    row(4, "The Lyon hotel is booked. Thanks to Giulia in facilities; Mr Novak agreed. Paul"),
]
LEAKY = [
    row(13, f"Hi HR, I will be in Lyon next week. Write to {LEAKS['EMAIL']}. Paul"),
    row(14, f"Please call me on {LEAKS['PHONE']} about Lyon. Thanks, Paul Martin"),
    row(15, f"My refund for Lyon goes to IBAN {LEAKS['ID']} please. Paul"),
    row(16, f"The Lyon office posts the details at {LEAKS['URL']} today. Paul"),
    row(17, f"I spoke with {LEAKS['PERSON']} yesterday about the Lyon trip. Paul Martin"),
]


@pytest.fixture
def presidio(presidio_detectors):
    """The analyze step generate's audit reads its rows with (synth.shard_writer.Audit)."""
    return Analyze(presidio_detectors)


def test_every_planted_leak_is_found_and_the_control_is_clean(presidio):
    _, clean = audit_rows(
        CONTROL, found_in([r["text"] for r in CONTROL], presidio), AuditSettings("flag")
    )
    assert clean == {"rows_with_findings": 0, "findings_per_type": {}, "row_ids": []}
    rows, counts = audit_rows(
        LEAKY, found_in([r["text"] for r in LEAKY], presidio), AuditSettings("flag")
    )
    assert counts["rows_with_findings"] == 5 and counts["row_ids"] == [
        "r13",
        "r14",
        "r15",
        "r16",
        "r17",
    ]
    assert counts["findings_per_type"] == {t: 1 for t in LEAKS}
    assert rows == LEAKY  # flag leaves the text as written


def test_redact_tags_the_leak_and_keeps_entity_offsets_exact(presidio):
    rows, _ = audit_rows(
        LEAKY[:1] + LEAKY[4:],
        found_in([r["text"] for r in LEAKY[:1] + LEAKY[4:]], presidio),
        AuditSettings("redact"),
    )
    assert rows[0]["text"] == "Hi HR, I will be in Lyon next week. Write to [EMAIL]. Paul"
    assert rows[1]["text"] == "I spoke with [PERSON] yesterday about the Lyon trip. Paul Martin"
    for r in rows:
        (e,) = r["entities"]
        assert r["text"][e["start"] : e["end"]] == "Lyon"
    assert not any(v in r["text"] for r in rows for v in LEAKS.values())


def test_drop_empties_the_text_and_says_why(presidio):
    rows, counts = audit_rows(
        LEAKY[:2] + CONTROL[:1],
        found_in([r["text"] for r in LEAKY[:2] + CONTROL[:1]], presidio),
        AuditSettings("drop"),
    )
    assert [r["text"] for r in rows[:2]] == ["", ""] and rows[2] == CONTROL[0]
    assert rows[0]["error"] == f"{DROPPED} (EMAIL)" and rows[0]["entities"] == []
    assert merge_counts([counts, counts])["findings_per_type"] == {"EMAIL": 2, "PHONE": 2}


def test_planted_ranges_cover_entities_and_every_persona_occurrence():
    (r,) = CONTROL[:1]
    text = r["text"]
    assert sorted(text[s:e] for s, e in planted(text, r["entities"], r["persona"])) == [
        "Lyon",
        "Paul",
        "Paul Martin",
    ]


def test_bad_settings_name_the_field():
    with pytest.raises(ConfigError, match="pii_audit.policy 'erase' unknown"):
        AuditSettings("erase")
    with pytest.raises(ConfigError, match=r"pii_audit.types: unknown or empty \['SSN'\]"):
        AuditSettings("flag", ["SSN"])
    with pytest.raises(ConfigError, match=r"audit: unknown setting\(s\) \['polcy'\]"):
        load_config("configs/tickets.yaml", {"pii_audit": {"polcy": "drop"}})
    default = load_config("configs/tickets.yaml").audit_settings()
    chosen = load_config("configs/tickets.yaml", {"pii_audit": {"policy": "drop"}})
    assert (default.policy, chosen.audit_settings().policy) == ("flag", "drop")
