"""Words and word pieces come from the tokenizer's own encoding (BatchEncoding.word_ids)
since issue 47; before, each piece's character offset was looked up in a list of words
from the pre-tokenizer. The old mapping is kept here as the reference: on every text of
the project's labelled sets both give the same words, gold tags and piece labels; they
differ only where the encoding's normaliser splits or joins words (a CJK run is one word
to the pre-tokenizer and one word per character to the encoding), and there the new
words are the ones the model sees."""

import json
from pathlib import Path

import pytest

from synth import encoder

ROOT = Path(__file__).resolve().parents[2]
SETS = ["eval/data/dev_tickets.jsonl", "eval/data/dev_people.jsonl", "eval/data/dev_cvs.jsonl"]
ODD = ["tabs\tand  double  spaces", "a\u00a0no-break space", "Café naïve résumé", "x\u200by", ""]


def old_word_tags(tokenizer, text, spans):
    pre_tokenizer = tokenizer.backend_tokenizer.pre_tokenizer
    words = [(s, e) for _, (s, e) in pre_tokenizer.pre_tokenize_str(text)]
    tags = []
    for start, end in words:
        tag = "O"
        for s, e, label in spans:
            if start < e and s < end:
                tag = ("B-" if start <= s else "I-") + label
                break
        tags.append(tag)
    return words, tags


def old_piece_labels(encoding, row, words, tags, tag_index):
    labels, seen = [], set()
    for start, end in encoding["offset_mapping"][row].tolist():
        word = next((i for i, (ws, we) in enumerate(words) if ws <= start < we), None)
        if end == start or word is None or word in seen:
            labels.append(-100)
        else:
            seen.add(word)
            labels.append(tag_index[tags[word]])
    return labels


def documents() -> list[tuple[str, list]]:
    docs = []
    for name in SETS:
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            spans = [tuple(e[:3]) for e in row.get("entities", [])]
            docs.append((row["text"], spans + [(*p[:2], p[2]) for p in row.get("personal", [])]))
    return docs + [(text, []) for text in ODD]


@pytest.fixture(scope="module")
def tokenizer():
    return encoder.load_tokenizer(encoder.resolve_encoder(None))


def test_words_tags_and_piece_labels_are_unchanged_on_the_projects_texts(tokenizer):
    docs = documents()
    assert len(docs) > 100
    texts = [text for text, _ in docs]
    enc = encoder.encode(tokenizer, texts)
    for row, (text, spans) in enumerate(docs):
        words, tags = encoder.word_tags(tokenizer, text, spans)
        assert (words, tags) == old_word_tags(tokenizer, text, spans), text[:60]
        index = {t: i for i, t in enumerate(dict.fromkeys(["O", *tags]))}
        assert encoder.piece_labels(enc, row, words, tags, index) == old_piece_labels(
            enc, row, words, tags, index
        ), text[:60]


def test_a_cjk_run_is_one_word_per_character_as_the_model_reads_it(tokenizer):
    text = "Meeting in 東京 today"
    words, tags = encoder.word_tags(tokenizer, text, [(11, 13, "location")])
    assert words == [(0, 7), (8, 10), (11, 12), (12, 13), (14, 19)]
    assert tags == ["O", "O", "B-location", "I-location", "O"]
    assert old_word_tags(tokenizer, text, [])[0][2] == (11, 13)  # the old mapping: one word
    enc = encoder.encode(tokenizer, [text])
    index = {"O": 0, "B-location": 1, "I-location": 2}
    assert encoder.piece_labels(enc, 0, words, tags, index) == [-100, 0, 0, 1, 2, 0, -100]
