"""The CLS+entity rules (candidate gold labels, scores) against hand-worked cases."""

import pytest

from eval.cls_entity import NONE, gold_label, missed, scores


def test_candidate_takes_the_overlapping_mappable_gold_label():
    spans = [(10, 16, "location"), (21, 30, "duration")]
    assert (
        gold_label((10, 16, "GPE"), "Ask information_Accommodation", spans)
        == "Ask information_Accommodation|location"
    )
    assert gold_label((20, 25, "DATE"), "A_B", spans) == "A_B|duration"  # partial overlap
    assert gold_label((10, 16, "DATE"), "A_B", spans) == NONE  # type does not map
    assert gold_label((40, 45, "GPE"), "A_B", spans) == NONE  # no overlap


def test_unmatched_gold_entities_are_counted_apart():
    spans = [(0, 5, "location"), (8, 12, "salary"), (20, 30, "complaint")]
    # complaint has no spaCy type: never a candidate's label, never counted as missed
    assert missed([(0, 5, "GPE")], spans) == 1


def test_scores_by_hand():
    gold = ["x|a", "x|a", NONE, "x|b"]
    pred = ["x|a", NONE, "x|a", "x|a"]
    m = scores(gold, pred, gold_missed=1)
    # tp 1; predicted entities 3; gold entity candidates 3
    assert m["precision"] == pytest.approx(1 / 3) and m["recall"] == pytest.approx(1 / 3)
    assert m["end_to_end_recall"] == pytest.approx(1 / 4)
