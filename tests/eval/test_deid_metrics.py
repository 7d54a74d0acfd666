"""Detection scores of de-identification on hand-counted cases, and the privacy summary."""

import pytest

from eval.deid import detection_scores, privacy_summary
from synth.deid.spans import Span


def test_exact_and_overlap_detection_per_type():
    gold = [
        [Span(0, 11, "PERSON", "gold"), Span(20, 27, "LOCATION", "gold")],
        [Span(5, 9, "DATE", "gold")],
    ]
    predicted = [
        [Span(0, 4, "PERSON", "p"), Span(20, 27, "LOCATION", "p"), Span(30, 35, "MONEY", "p")],
        [Span(5, 9, "LOCATION", "p")],  # right place, wrong type: no match either way
    ]
    scores = detection_scores(gold, predicted)
    assert scores["all"]["exact"]["precision"] == pytest.approx(1 / 4)  # LOCATION only
    assert scores["all"]["exact"]["recall"] == pytest.approx(1 / 3)
    assert scores["all"]["overlap"]["precision"] == pytest.approx(2 / 4)  # + the PERSON part
    assert scores["all"]["overlap"]["recall"] == pytest.approx(2 / 3)
    assert scores["PERSON"]["exact"]["f1"] == 0 and scores["PERSON"]["overlap"]["f1"] == 1
    assert scores["DATE"]["overlap"]["recall"] == 0 and scores["MONEY"]["overlap"]["precision"] == 0


def test_one_gold_span_is_matched_once():
    gold = [[Span(0, 11, "PERSON", "gold")]]
    predicted = [[Span(0, 4, "PERSON", "p"), Span(5, 11, "PERSON", "p")]]
    overlap = detection_scores(gold, predicted)["all"]["overlap"]
    assert overlap["precision"] == 0.5 and overlap["recall"] == 1.0


def test_privacy_summary_names_the_worst_documents():
    summary = privacy_summary(
        ["a", "b", "c"], [["Paul"], ["Lyon", "Paul"], []], ["[PERSON]", "Paul in [LOCATION]", "x"]
    )
    assert summary["mean"] == pytest.approx((1 + 0.5 + 1) / 3)
    assert summary["worst"][0] == {"id": "b", "score": 0.5} and summary[
        "share_perfect"
    ] == pytest.approx(2 / 3)
