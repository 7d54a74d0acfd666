"""One dependency parse per text (spaCy's packaged en_core_web_sm), shared by Presidio
(synth.deid.analyzer.detectors.shared_parse_engine), what reads clauses
(synth.deid.analyzer.clauses, conduct, the `subject` rule) and what writes their
surrogates (synth.deid.anonymizer.surrogates): a text is parsed once, whoever asks.

`parse_all` parses a batch's texts together (spaCy's `pipe`: 1.65x one at a time on 223
tickets, the same parses), so that the one-at-a-time callers find them parsed.
"""

from collections import OrderedDict

# Texts kept parsed, the oldest dropped first: a batch's documents and their sentences
# stay while its detectors and operators read them; bounded for actors.
CACHED = 4096
_cache: OrderedDict = OrderedDict()


def parsed(text: str):
    doc = _cache.get(text)
    if doc is None:
        from synth.nlp import load_nlp

        doc = _kept(text, load_nlp()(text))
    else:
        _cache.move_to_end(text)
    return doc


def parse_all(texts: list[str], batch_size: int = 64) -> None:
    """The texts not yet parsed, parsed together and kept for `parsed`."""
    from synth.nlp import load_nlp

    todo = list(dict.fromkeys(t for t in texts if t not in _cache))
    for text, doc in zip(todo, load_nlp().pipe(todo, batch_size=batch_size)):
        _kept(text, doc)


def forget() -> None:
    """Drop every parse: a new batch starts (the cache shares parses within a batch; a
    text seen in an earlier batch is parsed again, so that a run's speed does not depend
    on repeated documents)."""
    _cache.clear()


def _kept(text: str, doc):
    _cache[text] = doc
    while len(_cache) > CACHED:
        _cache.popitem(last=False)
    return doc
