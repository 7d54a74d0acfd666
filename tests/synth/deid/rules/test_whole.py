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


def test_a_document_without_words_and_spans_is_left_as_it_is():
    """Issue 94 (SENT3): an emoji-only document failed with ValueError (max of no spans)."""
    assert rule.apply("😀" * 120, []) == []
    assert merged(["😀" * 120], [[]])[0] == []


def test_a_whole_cjk_document_is_cut_at_its_full_stop_or_is_no_name():
    """Issue 94 (SENT4): 1,000 CJK characters became one [PERSON] span over the document."""
    text = "你好世界我们的" * 150
    assert rule.apply(text, [Span(0, len(text), "PERSON", "ner")]) == []
    said = "王小明。" + "我们的经理今天迟到了" * 3
    assert rule.apply(said, [Span(0, len(said), "CONDUCT", "ner")]) == [
        Span(0, 4, "CONDUCT", "ner")
    ]
    for one in ["Maria", "https://example.com/in/" + "x" * 80]:  # one name, one URL: whole
        kind = "PERSON" if one == "Maria" else "URL"
        assert rule.apply(one, [Span(0, len(one), kind, "p")]) == [Span(0, len(one), kind, "p")]
