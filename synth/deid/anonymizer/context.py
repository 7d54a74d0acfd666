"""What an operator knows when it writes a span's replacement, the same for hrsynth's
methods and an installed one (docs/extending.md): which document (its id), the run's
seed and country, the document as the detectors read it and all its decided spans, the
`--method-option` values, and the span being replaced. A method that wants the same
replacement for the same value across a run keys it on the seed and the value; one that
wants a document's replacements consistent keys them on the document id."""

from collections.abc import Mapping
from dataclasses import dataclass

from synth.deid.spans import Span


@dataclass(frozen=True)
class OperatorContext:
    doc_id: str
    seed: int
    country: str
    text: str  # the document, in display order: never written anywhere by hrsynth
    spans: tuple[Span, ...]  # every span the analyzer decided in it, in text order
    options: Mapping[str, str]  # --method-option KEY=VALUE
    span: Span | None = None  # the span being replaced


def method_options(text: str | None) -> dict[str, str]:
    """`--method-option KEY=VALUE[,KEY=VALUE]` read (synth.typed.key_values)."""
    from synth.typed import key_values

    return key_values(text, "--method-option", "style=initials")
