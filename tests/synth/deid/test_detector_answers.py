"""What a detector returns is checked where it enters (issue 65): too few span lists
left documents silently untouched (a privacy failure), a span past the end was accepted,
a negative start duplicated the document's content, an unknown type passed through.
Each is now one line naming the detector, before any document is written."""

import pytest

from synth import ConfigError
from synth.deid.analyzer.analyze import detect
from synth.deid.spans import Span

TEXTS = ["Call Ana Souza on Monday.", "Badge 4411 was lost."]


class Answers:
    name = "badge_ids"

    def __init__(self, found):
        self.found = found

    def detect(self, texts):
        return self.found


BROKEN = {
    "too few lists": ([[Span(5, 14, "PERSON", "b")]], r"returned 1 span lists for 2 documents"),
    "past the end": ([[], [Span(6, 99, "ID", "b")]], r"\[6, 99\) outside its document of 20"),
    "negative start": ([[Span(-3, 4, "PERSON", "b")], []], r"\[-3, 4\) outside"),
    "end before start": ([[Span(9, 4, "PERSON", "b")], []], r"\[9, 4\) outside"),
    "unknown type": ([[], [Span(6, 10, "BADGE", "b")]], r"type 'BADGE', not one of"),
    "not a span": ([[(6, 10, "ID")], []], r"not a Span"),
    "not a list": (None, r"returned NoneType span lists"),
}


@pytest.mark.parametrize("fault", sorted(BROKEN))
def test_a_wrong_answer_is_one_line_naming_the_detector(fault):
    found, message = BROKEN[fault]
    with pytest.raises(ConfigError, match=message) as refused:
        detect(TEXTS, [Answers(found)])
    line = str(refused.value)
    assert line.startswith("detector badge_ids returned") and "\n" not in line
    assert "leave it out of --detectors" in line


def test_a_right_answer_is_merged():
    found = [[Span(5, 14, "PERSON", "b")], [Span(6, 10, "ID", "b")]]
    spans = detect(TEXTS, [Answers(found)])
    assert [[(s.start, s.end, s.type) for s in d] for d in spans] == [
        [(5, 14, "PERSON")],
        [(6, 10, "ID")],
    ]
