"""One dependency parse per text (spaCy's packaged en_core_web_sm), shared by what reads
clauses (synth.deid.analyzer.clauses, conduct, the `subject` rule) and what writes their
surrogates (synth.deid.anonymizer.surrogates): a text is parsed once, whoever asks."""

from functools import lru_cache


@lru_cache(maxsize=4096)  # the same text is completed once per measured step; bounded for actors
def parsed(text: str):
    from synth.nlp import load_nlp

    return load_nlp()(text)
