"""The `edges` rule (synth/deid/analyzer/rules/edges.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

import re

from synth.deid.analyzer.rules import edges as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared


def test_a_span_loses_its_spaces_and_takes_whole_words():
    assert rule.apply("Hi  Paul  ", [Span(3, 10, "PERSON", "p")]) == [Span(4, 8, "PERSON", "p")]
    assert rule.apply("a  Pau l", [Span(2, 6, "PERSON", "p")]) == [Span(3, 6, "PERSON", "p")]


def test_replacements_keep_the_original_spacing():
    text = "Dear HR,\nmy manager Tom Baker\nkeeps shouting.\nRegards"
    spans = [Span(text.index("Tom"), text.index("keeps"), "PERSON", "ner")]  # holds the line break
    out, _ = shared(text, spans)
    assert re.fullmatch(r"Dear HR,\nmy manager \S+ \S+\nkeeps shouting\.\nRegards", out), out
    mid = "I asked Tomasz for it."
    inside = Span(mid.index("Tom"), mid.index("Tom") + 3, "PERSON", "ner")  # ends inside a word
    out, _ = shared(mid, [inside])
    assert "asz" not in out and re.fullmatch(r"I asked \S+( \S+)? for it\.", out), out
