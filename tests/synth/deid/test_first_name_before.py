"""A first name is replaced wherever the full name is, before a hyphenated surname too
(issue 84: `Fergus McAllister-Byrne` came out `Fergus [PERSON]`: spaCy reads the surname
alone, and Fergus is no first name the lexicon knows). Each case failed before."""

import pytest

from synth.deid.pipeline import deidentify


@pytest.mark.parametrize(
    "text",
    [
        "Hi, I am Fergus McAllister-Byrne and I need a new badge.",
        "Fergus McAllister-Byrne refused my leave. Fergus said no twice.",
        "Please ask Oisin Ni-Bhriain about my payslip.",
    ],
)
def test_a_first_name_before_a_hyphenated_surname_is_replaced(presidio_detectors, text):
    result = deidentify(["d0"], [text], presidio_detectors, "tag", seed=0)[0]
    first, surname = ("Oisin", "Bhriain") if "Oisin" in text else ("Fergus", "Byrne")
    assert first not in result.text and surname not in result.text, result.text


def test_a_capitalised_word_opening_a_sentence_is_no_first_name(presidio_detectors):
    text = "Thanks Smith for the help. Please call Smith tomorrow."
    result = deidentify(["d0"], [text], presidio_detectors, "tag", seed=0)[0]
    assert "Please" in result.text and "for the help" in result.text, result.text
