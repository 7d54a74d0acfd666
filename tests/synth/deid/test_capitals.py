"""Names in capitals are found by `--detectors presidio` (issue 84): spaCy's NER missed
`BOB SMITH` and `TURNER`, and a name reversed by an override once turned round. The
detector also reads a view with short runs of capitals written as names are; shouting
and acronyms stay as written. Each case here failed on the code before it."""

import pytest

from synth.deid.analyzer.capitals import name_case_view
from synth.deid.pipeline import deidentify

RLO, PDF = "\u202e", "\u202c"


@pytest.mark.parametrize(
    "text, names",
    [
        ("BOB SMITH approved my leave last week.", ["BOB", "SMITH"]),
        ("I spoke to JANE TURNER about my payslip.", ["JANE", "TURNER"]),
        ("Thanks for your help.\nRegards, DANIEL TURNER", ["DANIEL", "TURNER"]),
        (f"{RLO}{'BOB SMITH'[::-1]}{PDF} approved my leave last week.", ["HTIMS", "BOB"]),
    ],
)
def test_a_name_in_capitals_is_replaced(presidio_detectors, text, names):
    result = deidentify(["d0"], [text], presidio_detectors, "tag", seed=0)[0]
    for name in names:
        assert name not in result.text, result.text
    for kept in ("approved my leave", "about my payslip", "Thanks for your help."):
        if kept in text:
            assert kept in result.text, result.text


def test_the_view_keeps_each_words_length_and_leaves_shouting_and_acronyms():
    text = "BOB SMITH filed the PTO form with HR. I WAS NOT PAID FOR OVERTIME IN JUNE."
    view, changed = name_case_view(text)
    assert view == "Bob Smith filed the PTO form with HR. I WAS NOT PAID FOR OVERTIME IN JUNE."
    assert changed == [(0, 3), (4, 9)] and len(view) == len(text)
    # a run longer than a name is left as written
    assert name_case_view("Ask for ANNE MARIE LOUISE JONES today.")[1] == []
    assert name_case_view("Nothing in capitals here.") == ("Nothing in capitals here.", [])
