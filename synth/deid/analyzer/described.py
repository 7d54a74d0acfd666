"""The sentence decision acted on: a sentence the sentence classifier (synth.deid.analyzer.sentences)
reads as someone's conduct, a health condition, a life event or the reason for a change,
holding no span of a descriptive type, gets one, where the clause stands:

- conduct: what the person did (the main verb's predicate, synth.deid.analyzer.clauses'
  complaint_tokens): the person named before it stays its own span, as issue 71's
  predicates are, and the surrogate is a neutral predicate of the verb's shape;
- a health condition, a life event, a reason: the main verb's clause, its subject with it
  ("I am on maternity leave"), which the surrogate writes as a neutral clause of the type;
  a sentence with no verb ("Due to a sinus infection.") is its words after the
  connective that opens it.

Each span found here is the detector `sentences` with the classifier's probability as
its score: `deidentify --explain` shows it apart from what the BIO model tagged. Not in a
CV: a CV's achievement sentences are not conduct (synth.deid.analyzer.kinds.cv_shaped).
"""

from synth.deid.analyzer.kinds import cv_shaped
from synth.deid.analyzer.sentences import NEUTRAL, SentenceClassifier, descriptive_types, sentences
from synth.deid.spans import Span

DETECTOR = "sentences"
# The probability a sentence's type needs to be replaced (benchmarks/results/sentence_types.json:
# on real writing, any descriptive type at 0.7 was right 6 times in 10 and found half).
MIN_PROBABILITY = 0.7
# What a clause leaves out before its verb: a conjunction, a subordinator ("as I am …"),
# punctuation, an interjection.
LEADING_DEPS = ("cc", "mark", "punct", "intj")


def described_spans(
    texts: list[str],
    found: list[list[Span]],
    classifier: SentenceClassifier,
    min_probability: float = MIN_PROBABILITY,
    documents: list[str] | None = None,
) -> list[list[Span]]:
    """Per text, the spans the sentence decision adds: one per sentence read as a
    descriptive type that no span `found` of a descriptive type touches."""
    descriptive = set(descriptive_types().values())
    documents = documents or texts
    per_text = [[] if cv_shaped(d) else sentences(t) for t, d in zip(texts, documents)]
    flat = [t[a:b] for t, ss in zip(texts, per_text) for a, b in ss]
    probs = iter(classifier.probabilities(flat))
    out = []
    for text, spans, ss in zip(texts, found, per_text):
        added = []
        for a, b in ss:
            p = next(probs)
            best = max(range(len(p)), key=lambda i: p[i])
            kind = classifier.classes[best]
            if kind == NEUTRAL or p[best] < min_probability:
                continue
            if any(s.type in descriptive and s.start < b and a < s.end for s in spans):
                continue  # the model found it already
            clause = clause_of(text, a, b, kind, classifier, min_probability)
            if clause is not None:
                added.append(Span(*clause, kind, DETECTOR, score=round(float(p[best]), 4)))
        out.append(added)
    return out


def clause_of(
    text: str,
    start: int,
    end: int,
    kind: str,
    classifier: SentenceClassifier | None = None,
    min_probability: float = MIN_PROBABILITY,
) -> tuple[int, int] | None:
    """(start, end) of the clause of the sentence text[start:end] to replace as `kind`:
    for a type other than conduct, the smallest of its clauses (the main one, a clause
    under it: "because my daughter starts school") that the classifier still reads as
    descriptive, so that the request around a reason stays."""
    from synth.deid.parsing import parsed

    doc = parsed(text[start:end])
    root = next((t for t in doc if t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX")), None)
    if root is None:
        return _fragment(text, start, end)
    if kind == "CONDUCT":
        if _writer_or_being(root):
            return None  # what the writer did, or what someone is, is no one's conduct
        return _bounds(start, _predicate(root))
    whole = _bounds(start, _clause(root))
    inner = [_bounds(start, _clause(t)) for t in root.subtree if t.dep_ in INNER_CLAUSES]
    inner = [c for c in inner if c is not None and c != whole]
    if classifier is not None and inner:
        neutral = classifier.classes.index(NEUTRAL)
        probs = classifier.probabilities([text[a:b] for a, b in inner])
        sure = [
            (b - a, (a, b)) for (a, b), p in zip(inner, probs) if 1 - p[neutral] >= min_probability
        ]
        if sure:
            return min(sure)[1]
    return whole


# Clauses under a sentence's verb that may hold the reason alone.
INNER_CLAUSES = ("advcl", "ccomp", "conj", "pcomp")


def _clause(verb) -> list:
    """The verb's clause, without what opens it (a conjunction, "because", punctuation)."""
    dropped = {
        t.i
        for child in verb.children
        if child.i < verb.i and child.dep_ in LEADING_DEPS
        for t in child.subtree
    }
    return [t for t in verb.subtree if t.i not in dropped]


def _bounds(start: int, tokens: list) -> tuple[int, int] | None:
    while tokens and (tokens[-1].is_punct or tokens[-1].is_space):
        tokens = tokens[:-1]
    while tokens and (tokens[0].is_punct or tokens[0].is_space):
        tokens = tokens[1:]
    if not tokens:
        return None
    a, b = start + tokens[0].idx, start + tokens[-1].idx + len(tokens[-1])
    return (a, b) if b > a else None


def _writer_or_being(root) -> bool:
    """Whether the main verb's subject is the writer ("I contacted the bank") or the verb
    says what someone is ("My name is …"): a conduct predicate after it would read "I
    treated me …"."""
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    first_person = any(c.lower_ in ("i", "we") for c in subjects)
    return first_person or (
        root.lemma_ == "be" and not any(c.pos_ == "VERB" for c in root.children)
    )


def _predicate(root) -> list:
    """What the person did: the verb's predicate without a third person's subject (the
    person is their own span); a role before the verb ("my team lead keeps …") left out."""
    from synth.deid.analyzer.clauses import complaint_tokens

    return complaint_tokens(root)


def _fragment(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A sentence with no verb: its words after the connective that opens it."""
    from synth.deid.lexicon.connectives import opening_connective

    words = text[start:end].rstrip(" .!?;,")
    connective, _ = opening_connective(words)
    a = start + (len(connective) if connective else 0)
    while a < start + len(words) and text[a].isspace():
        a += 1
    b = start + len(words)
    return (a, b) if b > a else None
