"""The ticket's kind, read from its words: gates the clause types (a complaint only in a
complaint, a shift change's reason only in a shift change; synth.deid.analyzer.roles).

A BIO model sees a few words on each side; a misspelled or unusual word in an
accommodation request can look like a complaint to it. The kind of the whole ticket says
which clause types it can hold. The classifier is trained in the same build on the same
synthetic tickets as the detector (`hrsynth detector build`) and saved beside it as
`kinds.json`: character n-grams (robust to misspellings and missing spaces), TF-IDF,
logistic regression. Plain JSON (vocabulary, weights), so loading it runs no code.
"""

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from synth import DATA_DIR
from synth.io.files import read_yaml

KINDS_FILE = "kinds.json"
# The classifier's kind is used only when it is at least this sure; otherwise the kind is
# read from the predicted roles, as without a classifier.
MIN_PROBABILITY = 0.5
# A kind at least this likely may hold its clause types, sure or not
# (issue 62, benchmarks/results/detector.json: 0.03 kept as much as 0 on our dev sets,
# 0.08 less on real writing; 0.5, only where sure, left most complaints in real writing).
PLAUSIBLE = 0.05
NGRAMS = (2, 5)
MAX_FEATURES = 40_000


def _vectorizer(vocabulary=None):
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        analyzer="char_wb",
        ngram_range=NGRAMS,
        lowercase=True,
        sublinear_tf=True,
        max_features=MAX_FEATURES,
        vocabulary=vocabulary,
    )


def train_kinds(texts: list[str], labels: list[str], seed: int = 0, balanced: bool = False) -> dict:
    """The classifier as a JSON-ready dict; `balanced` weighs a rare class up (conduct
    sentences are one in thirty)."""
    from sklearn.linear_model import LogisticRegression

    vectorizer = _vectorizer()
    features = vectorizer.fit_transform(texts)
    weight = "balanced" if balanced else None
    model = LogisticRegression(C=10.0, max_iter=2000, random_state=seed, class_weight=weight)
    model = model.fit(features, labels)
    vocabulary = {term: int(i) for term, i in vectorizer.vocabulary_.items()}
    return {
        "what": "ticket kind from character n-grams (TF-IDF, logistic regression)",
        "trained_on_tickets": len(texts),
        "kinds": [str(k) for k in model.classes_],
        "vocabulary": vocabulary,
        "idf": [round(float(x), 6) for x in vectorizer.idf_],
        "weights": [[round(float(x), 6) for x in row] for row in model.coef_],
        "bias": [round(float(x), 6) for x in model.intercept_],
    }


@dataclass
class KindClassifier:
    kinds: list[str]
    vectorizer: object
    weights: np.ndarray
    bias: np.ndarray

    @classmethod
    def from_dict(cls, doc: dict) -> "KindClassifier":
        vectorizer = _vectorizer(doc["vocabulary"])
        vectorizer.idf_ = np.asarray(doc["idf"], dtype=np.float64)
        return cls(doc["kinds"], vectorizer, np.asarray(doc["weights"]), np.asarray(doc["bias"]))

    def probabilities(self, texts: list[str]) -> np.ndarray:
        scores = self.vectorizer.transform(texts) @ self.weights.T + self.bias
        if len(self.kinds) == 2:  # scikit-learn's binary form: one row of weights
            scores = np.hstack([-scores, scores])
        scores = scores - scores.max(axis=1, keepdims=True)
        exp = np.exp(scores)
        return exp / exp.sum(axis=1, keepdims=True)

    def likelihoods(self, texts: list[str]) -> list[dict[str, float]]:
        """Per text, each kind's probability."""
        if not texts:
            return []
        return [dict(zip(self.kinds, map(float, row))) for row in self.probabilities(texts)]

    def sure_kinds(self, texts: list[str]) -> list[str | None]:
        """Each text's kind where the classifier is sure of it (MIN_PROBABILITY), else None."""
        return [sure_kind(p) for p in self.likelihoods(texts)]


def sure_kind(likelihood: dict[str, float]) -> str | None:
    """The most likely kind (the first of equals) where it is at least MIN_PROBABILITY
    likely, else None: a caller holding the likelihoods classifies no text twice."""
    kind = max(likelihood, key=likelihood.get)
    return kind if likelihood[kind] >= MIN_PROBABILITY else None


def load_kinds(model_dir: str | Path) -> KindClassifier | None:
    """The detector's kind classifier, None for a detector built without one."""
    path = Path(model_dir) / KINDS_FILE
    if not path.is_file():
        return None
    return KindClassifier.from_dict(json.loads(path.read_text()))


@cache
def _cv_headings() -> tuple[re.Pattern, int]:
    doc = read_yaml(DATA_DIR / "deid" / "cv_headings.yaml", "CV headings")
    words = sorted((re.escape(h) for h in doc["headings"]), key=len, reverse=True)
    return re.compile(rf"(?<![\w-])({'|'.join(words)})(?![\w-])", re.IGNORECASE), doc[
        "min_headings"
    ]


def cv_shaped(text: str) -> bool:
    """Whether `text` is written under a CV's section headings (synth/data/deid/cv_headings.yaml:
    at least `min_headings` different ones, capitalised as headings are; a heading on a
    line of its own, as Markdown and plain-text resumes set it, counts for two)."""
    pattern, needed = _cv_headings()
    seen, alone = set(), set()
    for m in pattern.finditer(text):
        if m.group()[0].isupper():
            seen.add(m.group().lower())
            if _on_its_own_line(text, m.start(), m.end()):
                alone.add(m.group().lower())
    return len(seen) + len(alone) >= needed


# What may stand beside a heading on its line: Markdown's marks, a colon, spaces.
HEADING_MARKS = " \t#*_:=-"


def _on_its_own_line(text: str, start: int, end: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    return not text[line_start:start].strip(HEADING_MARKS) and not text[end:line_end].strip(
        HEADING_MARKS
    )


def held_clause_labels(
    text: str, probabilities: dict[str, float] | None, gate: str = "kind"
) -> frozenset[str] | None:
    """The ticket variables of the clause types the detector may report in `text` (None:
    every one). Under the `kind` gate: none in a CV; with a kind classifier, those of the
    kinds it finds at least PLAUSIBLE likely (an accommodation request the classifier is
    sure of holds no complaint; a ticket it hesitates over between a complaint and a shift
    change may hold either). A detector built without a classifier reads the kind from
    its roles, as before; `all` reports clause types wherever the model finds them."""
    if gate == "all":
        return None
    if cv_shaped(text):
        return frozenset()
    if probabilities is None:
        return None
    from synth.deid.analyzer.roles import ticket_roles

    roles = ticket_roles()
    return frozenset(
        r for kind, p in probabilities.items() if p >= PLAUSIBLE for r in roles.get(kind, ())
    )
