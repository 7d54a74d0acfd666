"""What the rules' tests share: a span where its words stand, and a text as
`--method surrogate` writes it after every rule."""

from synth.deid.analyzer.analyze import merged
from synth.deid.anonymizer.operators import replace_spans
from synth.deid.anonymizer.surrogates import Surrogates
from synth.deid.spans import Span


def span_of(text: str, words: str, type_: str, detector: str = "ner") -> Span:
    at = text.index(words)
    return Span(at, at + len(words), type_, detector)


def shared(text: str, spans: list[Span], doc: str = "d") -> tuple[str, list[dict]]:
    """The shareable text and its key, as `--method surrogate` writes them."""
    done = replace_spans(text, merged([text], [spans])[0], "surrogate", Surrogates(0, doc))
    return done.text, done.key
