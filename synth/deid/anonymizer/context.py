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
    """`--method-option KEY=VALUE[,KEY=VALUE]` read; a key given twice, or an item that
    is not KEY=VALUE, is one line naming it."""
    from synth import ConfigError

    out: dict[str, str] = {}
    for item in (p.strip() for p in (text or "").split(",")):
        if not item:
            continue
        key, eq, value = (p.strip() for p in item.partition("="))
        if not eq or not key:
            raise ConfigError(f"--method-option {item!r} is not KEY=VALUE (e.g. style=initials)")
        if key in out:
            raise ConfigError(f"--method-option {key} given twice; give it once")
        out[key] = value
    return out
