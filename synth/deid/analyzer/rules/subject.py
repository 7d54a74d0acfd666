"""`subject`: a conduct clause keeps its subject: a person named or by their role ("my
manager") becomes their own PERSON span, a pronoun or a thing ("the storage room") is
left as written; only the predicate is the CONDUCT span. A CONDUCT span that is a role
and nothing else ("my team lead") is the person (issue 83: 16 people named by their role
were replaced by a predicate)."""

from synth.deid.lexicon.work_roles import role_phrases
from synth.deid.parsing import parsed
from synth.deid.spans import Span

NAME = "subject"


def apply(text: str, spans: list[Span]) -> list[Span]:
    return [part for s in spans for part in with_subject(text, s)]


def with_subject(text: str, span: Span) -> list[Span]:
    """A CONDUCT span that opens with its own subject, split: a pronoun stays as written,
    a person named becomes a PERSON span, the predicate stays CONDUCT (the surrogate then
    writes a predicate of the same shape after the writer's subject)."""
    if span.type != "CONDUCT":
        return [span]
    if _only_a_role(text, span):
        return [Span(span.start, span.end, "PERSON", span.detector, span.score)]
    doc = parsed(text)
    inside = [t for t in doc if span.start <= t.idx < span.end and not t.is_space]
    if len(inside) < 2:
        return [span]
    ids = {t.i for t in inside}
    subjects = [t for t in inside if t.dep_ in ("nsubj", "nsubjpass") and t.head.i in ids]
    if not subjects or subjects[0].left_edge.i != inside[0].i:
        return [span]
    words = [t for t in subjects[0].subtree if t.i in ids]
    last = max(words, key=lambda t: t.i)
    predicate = [t for t in inside if t.i > last.i]
    if not predicate:
        return [span]
    out = [Span(predicate[0].idx, span.end, "CONDUCT", span.detector)]
    subject = Span(words[0].idx, last.idx + len(last), "PERSON", span.detector)
    if any(t.pos_ == "PROPN" for t in words) or _a_role(text, subject):
        out.append(subject)  # a person named, or by their role: replaced as a person
    return out  # a pronoun or a thing ("the storage room") stays as written


def _a_role(text: str, span: Span) -> bool:
    """Whether a role phrase of work_roles.yaml ("my manager") lies in the span."""
    return any(span.start <= a and b <= span.end for a, b in role_phrases(text))


def _only_a_role(text: str, span: Span) -> bool:
    """Whether the span's words are a role phrase of work_roles.yaml and nothing else."""
    words = text[span.start : span.end].strip(" ,.;:!?")
    lead = len(text[span.start : span.end]) - len(text[span.start : span.end].lstrip(" ,.;:!?"))
    start = span.start + lead
    return any(a <= start and start + len(words) <= b for a, b in role_phrases(text))
