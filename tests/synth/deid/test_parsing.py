"""One spaCy parse per text, shared by Presidio and the clause rules (synth.deid.parsing):
parsed in batches as one at a time, kept for the batch, forgotten at the next."""

from synth.deid import parsing
from synth.nlp import load_nlp

TEXTS = [
    "Hi HR, my manager Paul Martin keeps shouting at me in meetings.",
    "I flew to Berlin on 3 March and need the hotel refunded.",
    "Thanks, Ana",
]


def reading(doc) -> list[tuple]:
    return [(t.text, t.pos_, t.dep_, t.head.i, t.lemma_, t.ent_type_) for t in doc]


def test_a_batch_parsed_together_reads_as_each_text_alone():
    parsing.forget()
    parsing.parse_all(TEXTS)
    assert all(text in parsing._cache for text in TEXTS)
    assert [reading(parsing.parsed(t)) for t in TEXTS] == [reading(load_nlp()(t)) for t in TEXTS]
    parsing.forget()
    assert not parsing._cache


def test_presidio_leaves_its_parse_for_the_clause_rules(presidio_detectors):
    """What Presidio parsed is what `parsed` answers afterwards: the same object, not a
    second parse."""
    (presidio,) = presidio_detectors
    parsing.forget()
    presidio.detect(TEXTS[:1])
    doc = parsing._cache[TEXTS[0]]
    assert parsing.parsed(TEXTS[0]) is doc
    long_text = " ".join([TEXTS[1]] * 12)  # longer than a shared parse: parsed apart
    presidio.detect([long_text])
    assert long_text not in parsing._cache
