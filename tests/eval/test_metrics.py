"""Metric code against values computed by hand."""

import pytest

from eval.metrics import classification, entity_scores, partial_match, type_token_ratio


def test_classification_by_hand():
    y_true = ["a", "a", "a", "b", "b", "c"]
    y_pred = ["a", "a", "b", "b", "c", "c"]
    m = classification(y_true, y_pred, ["a", "b", "c"])
    # a: P 2/2, R 2/3, F 0.8 | b: P 1/2, R 1/2, F 0.5 | c: P 1/2, R 1/1, F 2/3
    assert m["per_class"]["a"]["f1"] == pytest.approx(0.8)
    assert m["per_class"]["b"]["f1"] == pytest.approx(0.5)
    assert m["per_class"]["c"]["f1"] == pytest.approx(2 / 3)
    assert m["macro_f1"] == pytest.approx((0.8 + 0.5 + 2 / 3) / 3)
    assert m["weighted_f1"] == pytest.approx((3 * 0.8 + 2 * 0.5 + 1 * 2 / 3) / 6)
    assert m["accuracy"] == pytest.approx(4 / 6)
    assert m["confusion"] == [[2, 1, 0], [0, 1, 1], [0, 0, 1]]


def test_macro_f1_averages_over_the_labels_the_test_set_holds():
    # one label in the test set; predictions spread over three
    m = classification(["a"] * 7, ["a", "a", "b", "b", "c", "a", "c"], ["a", "b", "c"])
    # a: P 3/3, R 3/7, F 0.6; b and c have no test document
    assert m["macro_f1"] == pytest.approx(0.6) and m["weighted_f1"] == pytest.approx(0.6)
    assert m["labels_absent_from_test"] == ["b", "c"] and m["accuracy"] == pytest.approx(3 / 7)


def test_exact_and_partial_entity_match_by_hand():
    gold = [
        ["B-loc", "I-loc", "O", "B-date", "I-date", "I-date"],
        ["O", "B-loc", "O", "O", "O", "O"],
    ]
    pred = [
        ["B-loc", "I-loc", "O", "O", "B-date", "I-date"],  # loc exact, date partial
        ["O", "B-date", "O", "B-loc", "O", "O"],
    ]  # wrong type, spurious loc
    m = entity_scores(gold, pred)
    # exact: 1 correct of 4 predicted, of 3 gold
    assert m["exact"]["precision"] == pytest.approx(1 / 4)
    assert m["exact"]["recall"] == pytest.approx(1 / 3)
    assert m["exact"]["f1"] == pytest.approx(2 * (1 / 4) * (1 / 3) / (1 / 4 + 1 / 3))
    # partial: loc + the overlapping date = 2 of 4 predicted, 2 of 3 gold
    assert m["partial"]["precision"] == pytest.approx(2 / 4)
    assert m["partial"]["recall"] == pytest.approx(2 / 3)
    assert (m["exact"]["predicted"], m["exact"]["gold"]) == (4, 3)


def test_partial_match_claims_each_gold_entity_once():
    gold = [["B-x", "I-x", "I-x", "I-x"]]
    pred = [["B-x", "I-x", "B-x", "I-x"]]  # two predictions inside one gold entity
    m = partial_match(gold, pred)
    assert m["precision"] == pytest.approx(1 / 2) and m["recall"] == pytest.approx(1.0)


def test_type_token_ratio_by_hand():
    tokens = ["the", "cat", "saw", "the", "cat"]
    assert type_token_ratio(tokens, 1) == pytest.approx(3 / 5)
    assert type_token_ratio(tokens, 2) == pytest.approx(3 / 4)  # the-cat twice
    assert type_token_ratio(["one"], 2) == 0.0
