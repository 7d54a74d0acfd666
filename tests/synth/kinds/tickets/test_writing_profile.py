"""A writing profile turned into generate's settings, and the planner that uses them."""

import json

import numpy as np
import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.kinds.tickets.plan import TicketPlanner
from synth.kinds.tickets.writing_profile import FORMAT, check_profile, settings

HEALTH, RAISE = "Life event_Health issues", "Salary_Salary raise"
COMPLAINT = "Complaint_Complaint"
BUCKETS = ["<=15", "<=30", "<=45", ">45"]


def hist(dist: dict, prior: dict) -> dict:
    cats = list(dist)
    return {
        "categories": cats,
        "distribution": [dist[c] for c in cats],
        "prior": [prior[c] for c in cats],
    }


def profile() -> dict:
    long = {f"{HEALTH}|{b}": p for b, p in zip(BUCKETS, [0, 0, 0.1, 0.4])}
    long |= {f"{RAISE}|{b}": p for b, p in zip(BUCKETS, [0.1, 0.4, 0, 0])}
    short = {f"{HEALTH}|{b}": p for b, p in zip(BUCKETS, [0.1, 0.4, 0, 0])}
    short |= {f"{RAISE}|{b}": p for b, p in zip(BUCKETS, [0.1, 0.4, 0, 0])}
    return {
        "format": FORMAT,
        "epsilon": 4.0,
        "private": True,
        "tickets": 500,
        "ledger": {"spent": 4.0},
        "histograms": {
            "greeting": hist({"yes": 0.35, "no": 0.65}, {"yes": 0.7, "no": 0.3}),
            "closing": hist({"none": 0.7, "sign_off": 0.3}, {"none": 0.4, "sign_off": 0.6}),
            "register": hist({"formal": 0.9, "informal": 0.1}, {"formal": 0.5, "informal": 0.5}),
            "lower_case": hist({"yes": 0.5, "no": 0.5}, {"yes": 0.0, "no": 1.0}),
            "no_final_punctuation": hist({"yes": 0.4, "no": 0.6}, {"yes": 0.25, "no": 0.75}),
            "slips": hist({"<=0.0": 0.5, "<=0.01": 0.5}, {"<=0.0": 0.75, "<=0.01": 0.25}),
            "length": hist(long, short),
            "label": hist({HEALTH: 0.8, RAISE: 0.2}, {HEALTH: 0.5, RAISE: 0.5}),
            "form_date": hist(
                {"iso": 0.3, "long": 0.1, "none": 0.6}, {"iso": 0, "long": 1, "none": 0}
            ),
            "form_money": hist({"none": 1.0}, {"none": 1.0}),
        },
    }


TRAITS = {"greeting": 0.7, "sign_off": 0.6, "slip_rate": 0.02, "length": {"mean": 40, "sd": 20}}


def test_knobs_move_the_measured_share_from_the_prior_to_the_profile():
    got = settings(profile(), TRAITS, [HEALTH, RAISE])
    assert got.traits["greeting"] == pytest.approx(0.35)  # 0.7 × 0.35 / 0.7
    assert got.traits["sign_off"] == pytest.approx(0.3)  # 0.6 × 0.3 / 0.6
    assert got.traits["lower_case"] == pytest.approx(0.5)  # (0.5 − 0) / 1
    assert got.traits["no_final_punctuation"] == pytest.approx(0.2)  # (0.4 − 0.25) / 0.75
    assert got.traits["slip_rate"] == pytest.approx(0.04)  # 0.02 × 0.0025 / 0.00125
    assert got.traits["register"] == {"formal": 0.9, "informal": 0.1}
    assert got.form_weights == {"date": {"iso": 0.3, "long": 0.1}}  # money: nobody wrote one
    assert got.label_weights == {HEALTH: 0.8, RAISE: 0.2}


def test_a_label_whose_tickets_run_longer_gets_a_longer_target():
    lengths = settings(profile(), TRAITS, [HEALTH, RAISE]).lengths
    assert lengths[RAISE] == {"mean": 40, "sd": 20}  # profile = prior
    assert lengths[HEALTH]["mean"] > 2 * 40  # 51.3 words against 22.5 in the prior


def test_a_file_that_is_no_profile_is_named():
    with pytest.raises(ConfigError, match="x.json is not a writing profile"):
        check_profile({"histograms": {}}, "x.json")


def planner(tmp_path, doc: dict, **tickets) -> TicketPlanner:
    (tmp_path / "profile.json").write_text(json.dumps(doc))
    cfg = load_config(
        None,
        {
            "labels": [COMPLAINT, RAISE],  # no DP model needed
            "num_docs": 400,
            "shard_size": 400,
            "writing_profile": str(tmp_path / "profile.json"),
            "value_forms": "all",
            "traits": {"greeting": 0.7},
            **tickets,
        },
    )
    return TicketPlanner(cfg, "r")


def test_the_planner_draws_labels_and_casing_from_the_profile(tmp_path):
    """400 tickets: label shares 0.8 / 0.2 and lower case at 0.5 are each within 4.5
    standard errors (0.09 and 0.11): a chance failure below 1e-5."""
    doc = profile()
    doc["histograms"]["label"] = hist({COMPLAINT: 0.8, RAISE: 0.2}, {COMPLAINT: 0.5, RAISE: 0.5})
    docs = planner(tmp_path, doc).plan_shard(0).docs
    assert abs(np.mean([d.label == COMPLAINT for d in docs]) - 0.8) < 0.09
    assert abs(np.mean([d.lower_case for d in docs]) - 0.5) < 0.11
    balanced = planner(tmp_path, doc, label_mix="balanced").plan_shard(0).docs
    assert sum(d.label == COMPLAINT for d in balanced) == 200


def test_private_evolutions_template_weights_steer_the_template_choice(tmp_path):
    """One pay-rise template weighted 1, the others 1e-9: it is written in (nearly)
    every pay-rise ticket, against about one in four without weights (exact here: the
    seeds are fixed)."""
    doc = profile()
    plain = [d for d in planner(tmp_path, doc).plan_shard(0).docs if d.label == RAISE]
    favourite = plain[0].template_id
    others = {d.template_id for d in plain} - {favourite}
    doc["evolution"] = {
        "rounds": 1,
        "epsilon": 1.0,
        "delta": 1e-5,
        "template_weights": {RAISE: {favourite: 1.0, **dict.fromkeys(others, 1e-9)}},
    }
    steered = [d for d in planner(tmp_path, doc).plan_shard(0).docs if d.label == RAISE]
    share = np.mean([d.template_id == favourite for d in steered])
    before = np.mean([d.template_id == favourite for d in plain])
    assert share > 0.9 and before < 0.6


def test_the_left_out_share_scales_the_taxonomys_omission_rate():
    """A complaint leaves the person out in 0.6 of the user's tickets against 0.3 of the
    default tickets: the taxonomy's 0.3 doubles; omission is switched on."""
    doc = profile()
    doc["histograms"]["written"] = hist(
        {f"{COMPLAINT}|to_who|yes": 0.4, f"{COMPLAINT}|to_who|no": 0.6},
        {f"{COMPLAINT}|to_who|yes": 0.7, f"{COMPLAINT}|to_who|no": 0.3},
    )
    got = settings(doc, TRAITS, [COMPLAINT], {COMPLAINT: {"to_who": 0.3}, RAISE: {"salary": 0.2}})
    assert got.omission == {COMPLAINT: {"to_who": pytest.approx(0.6)}}
    assert got.traits["omission"] is True
    assert settings(profile(), TRAITS, [COMPLAINT], {COMPLAINT: {"to_who": 0.3}}).omission == {}


def test_the_planner_leaves_variables_out_at_the_profiles_rate(tmp_path):
    """Complaints whose writers leave the person out three times as often as the default
    tickets do (0.9 against 0.3): the taxonomy's rate 0.3 becomes 0.9, and about three
    times as many planned complaints lack the person (fixed seeds: exact counts)."""
    doc = profile()
    doc["histograms"]["label"] = hist({COMPLAINT: 0.5, RAISE: 0.5}, {COMPLAINT: 0.5, RAISE: 0.5})
    setup = {"templates": "all", "traits": {"greeting": 0.7, "omission": True}}
    plain = [d for d in planner(tmp_path, doc, **setup).plan_shard(0).docs if d.label == COMPLAINT]
    doc["histograms"]["written"] = hist(
        {f"{COMPLAINT}|to_who|yes": 0.1, f"{COMPLAINT}|to_who|no": 0.9},
        {f"{COMPLAINT}|to_who|yes": 0.7, f"{COMPLAINT}|to_who|no": 0.3},
    )
    steered = [
        d for d in planner(tmp_path, doc, **setup).plan_shard(0).docs if d.label == COMPLAINT
    ]
    before = np.mean(["to_who" not in d.entities for d in plain])
    after = np.mean(["to_who" not in d.entities for d in steered])
    assert 0.15 < before < 0.45 and after > 0.75
