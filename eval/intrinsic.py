"""Intrinsic text metrics, per label and overall, for synthetic and real text alike.

Definitions (the Ticket Generator thesis's, made precise):
- TTR-1 / TTR-2: distinct over all word unigrams / bigrams within one document, averaged
  over documents (a corpus-wide TTR would fall with corpus size and compare nothing);
- noun and verb ratio: spaCy POS NOUN (PROPN counted apart) and VERB over word tokens
  (punctuation and spaces excluded);
- log frequency: mean over word tokens of ln(frequency per billion words) from
  `wordfreq` (English), words it does not know left out;
- words: word tokens per document, mean and standard deviation;
- NP ratio and mean NP length (the CV paper's): spaCy noun chunks per word token, and
  word tokens per noun chunk; verb subtree length: mean size (tokens) of the dependency
  subtree under each VERB.
"""

import math
from collections import defaultdict

import numpy as np

from eval.metrics import type_token_ratio
from synth.nlp import load_nlp


def document_stats(doc) -> dict:
    words = [t for t in doc if not (t.is_punct or t.is_space)]
    lowered = [t.lower_ for t in words]
    n = max(len(words), 1)
    return {
        "ttr_1": type_token_ratio(lowered, 1),
        "ttr_2": type_token_ratio(lowered, 2),
        "noun_ratio": sum(t.pos_ == "NOUN" for t in words) / n,
        "propn_ratio": sum(t.pos_ == "PROPN" for t in words) / n,
        "verb_ratio": sum(t.pos_ == "VERB" for t in words) / n,
        "log_frequencies": _log_frequencies(lowered),
        "words": len(words),
        "noun_chunks": [sum(not (t.is_punct or t.is_space) for t in c) for c in doc.noun_chunks],
        "verb_subtrees": [sum(1 for _ in t.subtree) for t in words if t.pos_ == "VERB"],
    }


def _log_frequencies(words: list[str]) -> list[float]:
    from wordfreq import word_frequency

    out = []
    for w in words:
        f = word_frequency(w, "en")
        if f > 0:
            out.append(math.log(f * 1e9))
    return out


def _summarise(stats: list[dict]) -> dict:
    words = np.array([s["words"] for s in stats], dtype=float)
    freqs = [f for s in stats for f in s["log_frequencies"]]
    return {
        "documents": len(stats),
        **{
            k: float(np.mean([s[k] for s in stats]))
            for k in ("ttr_1", "ttr_2", "noun_ratio", "propn_ratio", "verb_ratio")
        },
        "log_frequency": float(np.mean(freqs)) if freqs else 0.0,
        "np_ratio": float(np.mean([len(s["noun_chunks"]) / max(s["words"], 1) for s in stats])),
        "np_length": _mean([n for s in stats for n in s["noun_chunks"]]),
        "verb_subtree_length": _mean([n for s in stats for n in s["verb_subtrees"]]),
        "words_mean": float(words.mean()),
        "words_sd": float(words.std(ddof=1)) if len(words) > 1 else 0.0,
    }


def _mean(values: list) -> float:
    return float(np.mean(values)) if values else 0.0


def intrinsic(texts: list[str], labels: list[str], nlp=None, batch_size: int = 64) -> dict:
    """{'overall': {...}, 'per_label': {label: {...}}} for one corpus."""
    nlp = nlp or load_nlp()
    by_label = defaultdict(list)
    everything = []
    for doc, label in zip(nlp.pipe(texts, batch_size=batch_size), labels):
        stats = document_stats(doc)
        by_label[label].append(stats)
        everything.append(stats)
    return {
        "overall": _summarise(everything),
        "per_label": {label: _summarise(s) for label, s in sorted(by_label.items())},
    }
