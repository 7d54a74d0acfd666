"""Detection scores of de-identification on hand-counted cases, the privacy summary, and
the temperature tests on a case worked by hand."""

import math

import pytest

from eval.deid import detection_scores, privacy_summary, temperature_tests
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


def test_friedman_on_a_strict_order_and_on_ties():
    """10 documents always ranked 0.5 > 1.0 > 1.5: rank sums 30, 20, 10, so chi2 =
    12 / (10 * 3 * 4) * (900 + 400 + 100) - 3 * 10 * 4 = 20 and p = exp(-20 / 2)."""
    scores = {"0.5": [0.9] * 10, "1.0": [0.6] * 10, "1.5": [0.2] * 10}
    scores["1.5"][3] = 0.1  # not the same value everywhere: ranks are what count
    result = temperature_tests(scores)
    assert result["friedman_chi2"] == pytest.approx(20.0)
    assert result["friedman_p"] == pytest.approx(math.exp(-10))
    assert set(result["conover_p"]) == {"0.5 vs 1.0", "0.5 vs 1.5", "1.0 vs 1.5"}
    assert all(p < 0.01 for p in result["conover_p"].values())
    tied = temperature_tests({"a": [1.0] * 5, "b": [1.0] * 5, "c": [1.0] * 5})
    assert tied == {"friedman_chi2": 0.0, "friedman_p": 1.0, "conover_p": {}}
