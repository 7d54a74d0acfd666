"""What a writing profile counts in one ticket: exact categories on tickets written here,
and every histogram gets a weight of exactly 1 from every ticket (the sensitivity)."""

import math

import pytest

from synth.style.features import Ticket, votes
from synth.style.prior import taxonomy_categories

CATS = taxonomy_categories(labels=True, written=True)
HEALTH = "Life event_Health issues"


def one(ticket: Ticket) -> dict:
    out = votes(ticket, CATS)
    return {name: next(iter(v)) if len(v) == 1 else v for name, v in out.items()}


def test_a_formal_email_with_header_greeting_and_a_named_sign_off():
    text = (
        "Subject: Leave request\n"
        "Dear HR team,\n\n"
        "I would like to request leave from 3 March 2027 for 5 days because of surgery.\n\n"
        "Kind regards,\nMaria Lopez"
    )
    got = one(Ticket(text, HEALTH))
    assert got["header"] == "yes"
    assert got["greeting"] == "yes"
    assert got["closing"] == "sign_off_name"
    assert got["paragraphs"] == "<=3"
    assert got["register"] == "formal"
    assert got["lower_case"] == "no"
    assert got["no_final_punctuation"] == "no"
    assert got["form_date"] == "long"
    assert got["form_day_count"] == "digits"
    assert got["form_money"] == "none"
    assert got["length"] == f"{HEALTH}|<=30"
    assert got["label"] == HEALTH


def test_a_quick_lower_case_note_with_slips_and_no_full_stop():
    got = one(Ticket("hey cant come in tomorow, flu. back next monday thx", HEALTH))
    assert got["greeting"] == "yes"
    assert got["closing"] == "none"
    assert got["register"] == "informal"
    assert got["lower_case"] == "yes"
    assert got["no_final_punctuation"] == "yes"
    assert got["slips"] == ">0.06"  # 'tomorow' of 4 checked words
    assert got["form_date"] == "weekday"


def test_a_reply_opening_with_a_name_and_closing_with_a_name_alone():
    got = one(Ticket("Sara,\n\nI sent the form on the 3rd of May.\n\nTom", HEALTH))
    assert (got["greeting"], got["closing"], got["form_date"]) == ("yes", "name_only", "ordinal_of")


def test_forms_of_one_kind_share_the_ticket_weight():
    got = votes(Ticket("Off on 3/6 and again on March 9.", HEALTH), CATS)
    assert got["form_date"] == {"numeric_short": 0.5, "month_day": 0.5}


@pytest.mark.parametrize(
    "text",
    ["", "   ", "ok", "Hi,\n\nThanks,\n", "From: a\nTo: b\nSubject: c", "x " * 500, "3 weeks 4%"],
)
def test_every_histogram_gets_weight_one_from_every_ticket(text):
    ticket = Ticket(text, HEALTH, frozenset({"reason"}))
    got = votes(ticket, CATS)
    assert set(got) == set(CATS)
    for name, share in got.items():
        assert set(share) <= set(CATS[name]), name
        assert math.isclose(sum(share.values()), 1.0), name


def test_written_splits_the_weight_over_the_variables_a_label_may_leave_out():
    got = votes(Ticket("text", HEALTH, frozenset({"reason", "number_of_days"})), CATS)
    assert got["written"] == {
        f"{HEALTH}|date_start_absence|no": 0.5,
        f"{HEALTH}|number_of_days|yes": 0.5,
    }
