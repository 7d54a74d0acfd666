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
        "spurious_by_type": {"y": 1},
    }
    assert error_kinds(true, true) == {
        "exact": 3,
        "spurious": 0,
        "confusions": {},
        "spurious_by_type": {},
    }


def test_the_detector_output_is_scored_with_each_step_left_out_beside_it():
    from eval.detector_scores import ticket_bio_scores
    from synth.encoder import load_tokenizer, resolve_encoder, word_tags

    tokenizer = load_tokenizer(resolve_encoder("minilm"))
    text = "Can I swap my shift on 29/9?"
    gold = [word_tags(tokenizer, text, [(23, 27, "date")])]
    words = gold[0][0]
    raw = ["B-date" if text[s:e] == "29" else "O" for s, e in words]
    scores = ticket_bio_scores([text], gold, [raw])
    assert scores["exact"]["f1"] == 1.0  # "29" snapped to "29/9"
    assert scores["raw_model"]["exact"]["f1"] == 0.0
    assert scores["without_step"]["snap"]["exact_f1"] == 0.0
    assert scores["without_step"]["snap"]["errors"]["shorter"] == 1
    assert scores["without_step"]["function_words"]["exact_f1"] == 1.0
    assert scores["spans"] == {"gold": 1, "predicted": 1}
