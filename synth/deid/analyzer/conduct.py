"""Sentences that report what someone did: a classifier of conduct vs neutral sentences,
trained on the synthetic tickets' complaint spans, that finds the complaint the BIO model
missed in a complaint ticket.

People write complaints in many more ways than any grammar of ours ("is favouring",
"discriminated me because of …"); a token tagger that never saw the verb misses the
clause, and the shareable ticket keeps it. Whole sentences carry more signal: a sentence
of a complaint ticket that holds a complaint span is `conduct`, every other sentence of
every ticket `neutral`. Character n-grams, TF-IDF, logistic regression (synth.deid.analyzer.kinds'
classifier, two classes), saved beside the detector as `conduct.json`. In a ticket the
kind classifier is sure is a complaint, a sentence read as conduct with no complaint span
in it gets one: its main verb's clause, as the parse completes a complaint
(synth.deid.analyzer.clauses), the person before the verb left out.
"""

import json
from pathlib import Path

from synth.deid.analyzer.kinds import KindClassifier, train_kinds
from synth.deid.analyzer.sentence_bounds import sentences

CONDUCT_FILE = "conduct.json"
LABEL = "complaint"  # the ticket variable a conduct sentence holds
MIN_PROBABILITY = 0.5
# The kinds that hold a complaint, together at least this likely: the ticket may be one.
COMPLAINT_LIKELY = 0.2


def training_sentences(rows: list[dict]) -> tuple[list[str], list[str]]:
    """Sentences of generated tickets (`text`, `entities`) and their labels."""
    texts, labels = [], []
    for row in rows:
        spans = [(e["start"], e["end"]) for e in row["entities"] if e["label"] == LABEL]
        for a, b in sentences(row["text"]):
            texts.append(row["text"][a:b])
            labels.append("conduct" if any(s < b and a < e for s, e in spans) else "neutral")
    return texts, labels


def train_conduct(rows: list[dict], seed: int = 0) -> dict | None:
    """The classifier as a JSON-ready dict (None: the tickets hold no complaint)."""
    texts, labels = training_sentences(rows)
    if len(set(labels)) < 2:
        return None
    trained = train_kinds(texts, labels, seed, balanced=True)
    trained["what"] = "conduct vs neutral sentence, character n-grams (TF-IDF, logistic regression)"
    return trained


def may_complain(likelihoods: dict[str, float] | None) -> bool:
    """Whether a ticket may be a complaint: the kind classifier finds the kinds holding a
    complaint at least COMPLAINT_LIKELY likely together (True without a classifier: the
    kind is then read from the predicted roles)."""
    if likelihoods is None:
        return True
    from synth.deid.analyzer.roles import ticket_roles

    roles = ticket_roles()
    return sum(p for k, p in likelihoods.items() if LABEL in roles.get(k, ())) >= COMPLAINT_LIKELY


def load_conduct(model_dir: str | Path) -> KindClassifier | None:
    path = Path(model_dir) / CONDUCT_FILE
    if not path.is_file():
        return None
    return KindClassifier.from_dict(json.loads(path.read_text()))


def conduct_sentences(text: str, classifier: KindClassifier) -> list[tuple[int, int]]:
    """The sentences of `text` the classifier reads as conduct."""
    found = sentences(text)
    if not found:
        return []
    probs = classifier.probabilities([text[a:b] for a, b in found])
    column = classifier.kinds.index("conduct")
    return [s for s, p in zip(found, probs) if p[column] >= MIN_PROBABILITY]


def with_conduct(
    text: str, words: list[tuple[int, int]], tags: list[str], classifier: KindClassifier
) -> list[str]:
    """BIO tags with a complaint clause in each conduct sentence that has none."""
    from synth.deid.analyzer.clauses import complaint_tokens
    from synth.deid.lexicon.work_roles import role_phrases
    from synth.deid.parsing import parsed

    out = list(tags)
    for start, end in conduct_sentences(text, classifier):
        inside = [i for i, (a, b) in enumerate(words) if a >= start and b <= end]
        if not inside or any(out[i][2:] == LABEL for i in inside):
            continue
        verbs = [
            t
            for t in parsed(text)
            if start <= t.idx < end and t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX")
        ]
        if not verbs:
            continue
        tokens = [t for t in complaint_tokens(verbs[0]) if start <= t.idx and t.idx + len(t) <= end]
        while tokens and (tokens[-1].is_punct or tokens[-1].is_space):
            tokens = tokens[:-1]
        if not tokens:
            continue
        a, b = min(t.idx for t in tokens), max(t.idx + len(t) for t in tokens)
        for role_start, role_end in role_phrases(text[start:end]):  # "my team [lead] keeps"
            if start + role_start <= a < start + role_end:
                a = start + role_end  # the small parser read the role's noun as the verb
        chosen = [i for i in inside if words[i][0] >= a and words[i][1] <= b and out[i] == "O"]
        for n, i in enumerate(chosen):
            out[i] = ("B-" if n == 0 or chosen[n - 1] != i - 1 else "I-") + LABEL
    return out
