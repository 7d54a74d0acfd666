"""The `whole` rule (synth/deid/analyzer/rules/whole.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

import re

from synth.deid.analyzer.analyze import merged
from synth.deid.analyzer.rules import whole as rule
from synth.deid.spans import Span


def test_a_span_over_the_whole_document_is_cut_to_its_first_sentence():
    text = "Paul Martin left early. Then he came back."
    assert rule.apply(text, [Span(0, len(text), "CONDUCT", "p")]) == [Span(0, 23, "CONDUCT", "p")]


def test_no_span_covers_a_whole_document():
    for text in ["My manager keeps humiliating me. He hides my mail.", "He keeps humiliating me"]:
        spans = merged([text], [[Span(0, len(text), "CONDUCT", "ner")]])[0]
        outside = "".join(
            text[a.end : b.start]
            for a, b in zip(
                [Span(0, 0, "", "")] + spans, spans + [Span(len(text), len(text), "", "")]
            )
        )
        assert re.search(r"\w", outside), (text, spans)
