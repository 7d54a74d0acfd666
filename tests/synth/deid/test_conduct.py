"""The conduct-sentence classifier (synth.deid.analyzer.conduct): sentences as people break them,
trained on complaint spans, and a complaint clause added where the model found none."""

from seqeval.metrics.sequence_labeling import get_entities

from synth.deid.analyzer.conduct import (
    conduct_sentences,
    sentences,
    train_conduct,
    training_sentences,
    with_conduct,
)
from synth.deid.analyzer.kinds import KindClassifier
from synth.encoder import load_tokenizer, resolve_encoder, word_tags


def test_sentences_end_where_people_end_them():
    text = "Hi HR,\nmy colleague keeps taking\nmy parcels. Can you help?\n\nThanks\nAna"
    assert [text[a:b] for a, b in sentences(text)] == [
        "Hi HR,\nmy colleague keeps taking\nmy parcels.",  # a line break inside a sentence
        "Can you help?",
        "Thanks",
        "Ana",
    ]


def _ticket(text: str, complaint: str | None) -> dict:
    if complaint is None:
        return {"text": text, "entities": []}
    start = text.index(complaint)
    return {
        "text": text,
        "entities": [{"start": start, "end": start + len(complaint), "label": "complaint"}],
    }


ROWS = [
    _ticket(f"Hello HR. My {who} keeps {did} me. Please help.", f"keeps {did} me")
    for who in ("manager", "colleague", "supervisor", "boss")
    for did in ("shouting at", "insulting", "mocking", "ignoring", "threatening")
] + [
    _ticket(f"Hello HR. I would like to {ask} next month. Please help.", None)
    for ask in (
        "book a hotel",
        "change my shift",
        "get a refund",
        "take two days off",
        "ask about pay",
    )
] * 4


def test_training_labels_a_sentence_by_its_complaint_span():
    texts, labels = training_sentences(ROWS[:1] + ROWS[-1:])
    assert list(zip(texts, labels)) == [
        ("Hello HR.", "neutral"),
        ("My manager keeps shouting at me.", "conduct"),
        ("Please help.", "neutral"),
        ("Hello HR.", "neutral"),
        ("I would like to ask about pay next month.", "neutral"),
        ("Please help.", "neutral"),
    ]
    assert train_conduct([r for r in ROWS if not r["entities"]]) is None  # no complaint


def test_a_complaint_the_model_missed_is_added_from_its_verb():
    classifier = KindClassifier.from_dict(train_conduct(ROWS))
    text = "Dear HR. My team lead keeps shouting at me in meetings. Thank you."
    assert [text[a:b] for a, b in conduct_sentences(text, classifier)] == [
        "My team lead keeps shouting at me in meetings."
    ]
    tokenizer = load_tokenizer(resolve_encoder(None))
    words, _ = word_tags(tokenizer, text, [])
    tags = with_conduct(text, words, ["O"] * len(words), classifier)
    found = [(lab, text[words[a][0] : words[b][1]]) for lab, a, b in get_entities(tags)]
    assert found == [("complaint", "keeps shouting at me in meetings")]  # the person left out
    # a sentence that already holds a complaint span is left as it is
    held = with_conduct(text, words, tags, classifier)
    assert held == tags
