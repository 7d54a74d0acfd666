"""`hrsynth profile`: private tickets in, a DP writing profile out; bad input is one line
naming the field and the fix, before any ε is spent; no ticket text reaches the output."""

import json

import pytest

from jobs import profile as profile_job

TEXTS = [
    "Hi,\n\nI need 3 days off from March 3 for my knee surgery.\n\nThanks,\nAnna",
    "dear hr i would like a 10 percent raise, my salary is $40,000",
    "Can I swap my shift next Monday? My son has a school play. Tom",
    "Hello, my manager keeps shouting at me in meetings. Regards, Bea Klein",
]
LABELS = ["sick", "pay", "shift", "complaint"]
MAP = {
    "sick": "Life event_Health issues",
    "pay": "Salary_Salary raise",
    "shift": "Timetable change_Shift change",
    "complaint": "Complaint_Complaint",
}


def write(tmp_path, rows, name="tickets.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def run(tmp_path, *extra):
    out = tmp_path / "profile.json"
    code = profile_job.main(["--epsilon", "4", "--output", str(out), *extra])
    return code, out


def test_a_labelled_file_gives_a_profile_with_its_ledger(tmp_path, capsys):
    rows = [{"text": t, "label": lab} for t, lab in zip(TEXTS, LABELS)] * 5
    (tmp_path / "map.yaml").write_text("".join(f"{k}: {v}\n" for k, v in MAP.items()))
    code, out = run(
        tmp_path, "--texts", str(write(tmp_path, rows)), "--label-map", str(tmp_path / "map.yaml")
    )
    assert code == 0
    doc = json.loads(out.read_text())
    assert doc["tickets"] == 20 and doc["source"]["labelled"] is True
    assert doc["ledger"]["spent"] <= 4.0 and doc["ledger"]["spent"] > 4.0 * (1 - 1e-9)
    assert {"label", "length", "greeting", "form_date"} <= set(doc["histograms"])
    assert "Salary_Salary raise|<=15" in doc["histograms"]["length"]["categories"]
    written = out.read_text() + capsys.readouterr().out
    assert not any(t.split(",")[0][:20] in written for t in TEXTS[1:])  # no ticket text


def test_unlabelled_tickets_give_no_label_mix(tmp_path):
    code, out = run(tmp_path, "--texts", str(write(tmp_path, [{"text": t} for t in TEXTS])))
    assert code == 0
    doc = json.loads(out.read_text())
    assert "label" not in doc["histograms"] and "<=15" in doc["histograms"]["length"]["categories"]


@pytest.mark.parametrize(
    "rows, extra, message",
    [
        ([{"text": TEXTS[0], "label": "sick"}], [], "not taxonomy labels ('sick'); map them"),
        (
            [{"text": TEXTS[0], "label": "Complaint_Complaint"}, {"text": TEXTS[1]}],
            [],
            "1 of 2 tickets have no label",
        ),
        ([{"body": TEXTS[0]}], [], "no text field 'text'"),
        ([{"text": TEXTS[0]}], ["--epsilon", "0"], "--epsilon must be a number in (0"),
        (
            [{"text": TEXTS[0]}],
            ["--prior-strength", "-1"],
            "--prior-strength must be >= 0, got -1.0",
        ),
        (
            [{"text": TEXTS[0], "vars": ["to_who"]}],
            ["--variables-field", "vars"],
            "--variables-field vars: which variables a ticket leaves out depends on its label",
        ),
        (
            [{"text": TEXTS[0], "label": "Complaint_Complaint", "vars": 3}],
            ["--variables-field", "vars"],
            "field 'vars' is a number; give a list of variable names",
        ),
        (
            [{"text": TEXTS[0], "label": "Complaint_Complaint", "vars": ["who", "complaint"]}],
            ["--variables-field", "vars"],
            "--variables-field vars: 1 variable names are not the taxonomy's ('who')",
        ),
        (  # a mistyped field: every ticket would read as writing no variable (issue 84)
            [{"text": TEXTS[0], "label": "Complaint_Complaint", "vars": ["to_who"]}],
            ["--variables-field", "varibles"],
            "--variables-field varibles: no record of --input",
        ),
    ],
)
def test_bad_input_is_one_line_before_any_work(tmp_path, capsys, rows, extra, message):
    code, out = run(tmp_path, "--texts", str(write(tmp_path, rows)), *extra)
    assert code == 2 and not out.exists()
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "written",
    [
        lambda names: names,  # names
        lambda names: [{"start": 0, "end": 3, "label": n} for n in names],  # spans
        lambda names: ";".join(names),  # a CSV cell
    ],
)
def test_the_variables_written_give_how_often_each_is_left_out(tmp_path, written):
    """20 complaints, 15 of which name the person complained about: read as names, spans
    or a CSV cell, the unnoised counts are exactly 15 written and 5 left out; the job
    releases that histogram (noised)."""
    from synth.config.private_options import ProfileOptions
    from synth.style.prior import taxonomy_categories
    from synth.style.release import true_counts

    rows = [
        {"text": TEXTS[3], "label": "Complaint_Complaint", "vars": written(["to_who"] * (i < 15))}
        for i in range(20)
    ]
    texts = str(write(tmp_path, rows))
    args = ProfileOptions(texts=texts, epsilon=4, output="x", variables_field="vars")
    cats = taxonomy_categories()
    counts = dict(
        zip(cats["written"], true_counts(profile_job.read_tickets(args), cats)["written"])
    )
    assert counts["Complaint_Complaint|to_who|yes"] == 15
    assert counts["Complaint_Complaint|to_who|no"] == 5
    code, out = run(tmp_path, "--texts", texts, "--variables-field", "vars")
    assert code == 0
    hist = json.loads(out.read_text())["histograms"]["written"]
    assert "Complaint_Complaint|to_who|no" in hist["categories"]
