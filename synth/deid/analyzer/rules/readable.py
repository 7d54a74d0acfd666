"""`readable`: a complaint (CONDUCT) span is replaced by a neutral predicate written
after the words before it (synth.deid.anonymizer.surrogates); that reads only where those
words are its subject or its verb's helper: a person ("he", "my manager", "Anna", "who")
or an auxiliary, a verb, "to" or "not" ("keeps [shouting at me]"). Where they are
anything else (a thing as the subject, "this email [has been …]"; a preposition, "close
to [has been …]"; another verb's object), the span becomes its whole sentence, which the
surrogate writes as a neutral sentence (issue 93: predicates spliced where the detector's
span happened to start did not read), and so does a span that is no predicate (it opens
with no verb) or follows "I"/"we" (the neutral predicates are what someone did "towards
me"). A span that opens its sentence is left as it is;
a greeting that opens the sentence stays outside the widened span."""

from synth.deid.analyzer.rules.greetings import greeting_regions
from synth.deid.analyzer.sentence_bounds import sentences
from synth.deid.lexicon.work_roles import role_phrases
from synth.deid.parsing import parsed
from synth.deid.spans import Span, resolve

NAME = "readable"
# Penn tags of the word before a predicate that let it read: a pronoun or name as its
# subject, "who", an auxiliary or verb it completes, "to", a modal, "not"/an adverb, "and".
# Subjects that are no person: a predicate of what someone did would not read after them.
THING_SUBJECTS = ("it", "this", "that", "there", "which", "what")
FITTING_TAGS = (
    "PRP",
    "WP",
    "NNP",
    "NNPS",
    "MD",
    "TO",
    "RB",
    "CC",
    "VB",
    "VBZ",
    "VBP",
    "VBD",
    "VBN",
    "VBG",
)


def apply(text: str, spans: list[Span]) -> list[Span]:
    if not any(s.type == "CONDUCT" for s in spans):
        return spans
    out = list(spans)
    for span in spans:
        if span.type != "CONDUCT" or _reads_after(text, span, spans):
            continue
        start, end = _sentence_of(text, span)
        start = _after_greeting(text, start, span.start)
        whole = Span(start, max(end, span.end), "CONDUCT", span.detector, span.score)
        out = [s for s in out if s is not span and not whole.overlaps(s)] + [whole]
    return resolve(out)


def _sentence_of(text: str, span: Span) -> tuple[int, int]:
    for start, end in sentences(text):
        if start <= span.start < end:
            return start, end
    return span.start, span.end


def _reads_after(text: str, span: Span, spans: list[Span]) -> bool:
    """Whether a predicate written at `span` reads after the words before it."""
    start, _ = _sentence_of(text, span)
    before = text[start : span.start].rstrip(" ,\t")
    if not before.strip():
        return True  # it opens its sentence
    end = start + len(before)
    if any(s.type == "PERSON" and s.end == end for s in spans):
        return True  # a person replaced just before: the subject
    if any(a < end <= b for a, b in role_phrases(text)):
        return True  # "my manager [keeps …]"
    doc = parsed(text)
    last = next((t for t in reversed(doc) if t.idx + len(t) <= end and not t.is_space), None)
    first = next((t for t in doc if t.idx >= span.start and not t.is_space), None)
    if last is None or first is None or not first.tag_.startswith(("VB", "MD")):
        return False  # the span is no predicate ("[distracting to be told …]")
    if last.lower_ in ("i", "we"):
        return False  # the writer's own acts: a predicate "towards me" would not read
    verb = first if first.dep_ in ("ROOT", "conj", "xcomp", "ccomp", "relcl") else first.head
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    if any(c.lower_ in THING_SUBJECTS and c.idx < span.start for c in subjects):
        return False  # "It is extremely [distracting …]": no one is the subject
    if last.tag_ == "IN" and first.tag_ == "VBG":
        return True  # "reported him for [shouting at me]": a gerund after a preposition
    return last.tag_ in FITTING_TAGS


def _after_greeting(text: str, start: int, limit: int) -> int:
    """Where a sentence starts once a greeting opening it is passed over ("Hi, [I'd …]"):
    a greeting is never replaced (the `greetings` rule)."""
    for a, b in greeting_regions(text):
        if a <= start < b <= limit:
            start = b
            while start < limit and (text[start].isspace() or text[start] in ",:;!-–—."):
                start += 1
    return start
