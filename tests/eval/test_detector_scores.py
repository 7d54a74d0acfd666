from eval.detector_scores import error_kinds


def test_errors_are_counted_by_kind_over_the_gold_spans():
    true = [["B-a", "I-a", "O", "B-b", "O", "B-c", "I-c", "O"]]
    predicted = [["B-a", "O", "O", "B-x", "O", "O", "O", "B-y"]]
    assert error_kinds(true, predicted) == {
        "shorter": 1,  # a: one word of two
        "wrong_role": 1,  # b typed as x
        "missed": 1,  # c
        "spurious": 1,  # y overlaps nothing
        "confusions": {"b -> x": 1},
    }
    assert error_kinds(true, true) == {"exact": 3, "spurious": 0, "confusions": {}}
