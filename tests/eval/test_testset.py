import json

import pytest

from eval.testset import DEV_TICKETS, load_testset
from synth import ConfigError
from synth.kinds.tickets.taxonomy import load_taxonomy

TAXONOMY = load_taxonomy()
LABELS = sorted(TAXONOMY)
ENTITY_LABELS = {v for s in TAXONOMY.values() for v in s.variables}


def test_development_set_is_valid_and_balanced():
    test = load_testset(DEV_TICKETS, LABELS, ENTITY_LABELS)
    assert len(test.docs) == 40 and len(test.sha256) == 64
    assert {label: sum(d.label == label for d in test.docs) for label in LABELS} == {
        label: 5 for label in LABELS
    }
    for doc in test.docs:
        allowed = set(TAXONOMY[doc.label].variables)
        assert doc.entities and {e[2] for e in doc.entities} <= allowed, doc.text
        for start, end, _ in doc.entities:  # spans start and end on word boundaries
            assert doc.text[start:end].strip() == doc.text[start:end]


def test_labels_match_case_insensitively_and_ticket_is_accepted(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            [
                {
                    "ticket": "My pay gap is 5%.",
                    "label": "salary_gender PAY gap",
                    "entities": [[14, 16, "wage_gap"]],
                }
            ]
        )
    )
    doc = load_testset(path, LABELS).docs[0]
    assert doc.label == "Salary_Gender pay gap" and doc.text.startswith("My pay")


def test_every_bad_record_is_listed_with_its_reason(tmp_path):
    path = tmp_path / "bad.jsonl"
    records = [
        {"text": "fine", "label": "Complaint_Complaint", "entities": []},
        {"text": "short", "label": "Complaint_Complaint", "entities": [[2, 40, "complaint"]]},
        {"text": "hello there", "label": "Nonsense_Label", "entities": []},
        {
            "text": "hello there",
            "label": "Complaint_Complaint",
            "entities": [[0, 5, "to_who"], [3, 8, "complaint"]],
        },
        {"label": "Complaint_Complaint"},
        {"text": "from Ann", "label": "Complaint_Complaint", "personal": [[5, 8, "NAME"]]},
    ]
    path.write_text("\n".join(json.dumps(r) for r in records))
    with pytest.raises(ConfigError) as info:
        load_testset(path, LABELS)
    message = str(info.value)
    assert "5 problem(s)" in message
    assert "record 5: personal span [5, 8, 'NAME'] has an unknown type" in message
    assert "record 1: entity [2, 40, 'complaint'] has offsets outside the text" in message
    assert "record 2: unknown label 'Nonsense_Label'" in message
    assert "record 3: entity [3, 8, 'complaint'] overlaps [0, 5, 'to_who']" in message
    assert "record 4: no 'text' (or 'ticket') string" in message


@pytest.mark.parametrize(
    "content,message",
    [
        ("", "the file is empty"),
        ('{"text": "a", "label": "x"}\n{oops', "line 2 is not JSON"),
    ],
)
def test_unreadable_files(tmp_path, content, message):
    path = tmp_path / "t.jsonl"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message):
        load_testset(path, LABELS)
    with pytest.raises(ConfigError, match="cannot read"):
        load_testset(tmp_path / "missing.jsonl", LABELS)


def test_the_dev_cvs_are_valid_with_personal_spans():
    cvs = load_testset(DEV_TICKETS.with_name("dev_cvs.jsonl"), None)
    assert len(cvs.docs) == 12 and {d.label for d in cvs.docs} == {
        "Data Science",
        "HR",
        "Java Developer",
        "Sales",
    }
    assert all(d.personal and d.text[d.personal[0][0] : d.personal[0][1]] for d in cvs.docs)
