"""The NER detector's loading and plumbing: a fine-tuned folder with BIO tag names loads
and yields spans of personal-data types only; a folder without names, or without a model,
is one clear line. (Plumbing: the head here is untrained; the model evaluate fine-tunes is
measured in benchmarks/deid/deidentify.py.)"""

import pytest

from synth import ConfigError
from synth.deid.analyzer.detectors import NerDetector
from synth.encoder import load_tokenizer, resolve_encoder, token_classifier

TAGS = ["O", "B-location", "I-location", "B-duration", "I-duration"]


def save_biased(folder, tag: str):
    """A token classifier whose head always says `tag` (a large bias on it)."""
    import torch

    model = token_classifier(resolve_encoder(None), len(TAGS))
    model.config.id2label = dict(enumerate(TAGS))
    model.config.label2id = {t: i for i, t in enumerate(TAGS)}
    with torch.no_grad():
        model.classifier.bias[TAGS.index(tag)] = 1e4
    model.save_pretrained(folder)
    load_tokenizer(resolve_encoder(None)).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    return save_biased(tmp_path_factory.mktemp("bio_ner"), "I-location")


def test_word_tags_become_spans_of_personal_types_only(checkpoint, tmp_path):
    texts = ["I will be in Lyon for two weeks.", "Nothing here"]
    found = NerDetector(str(checkpoint)).detect(texts)
    # Every word I-location: the first starts the entity (repaired to B-), the rest continue
    # it; the full stop after it stays out (synth.deid.analyzer.hygiene).
    assert [
        [(t[s.start : s.end], s.type, s.detector) for s in spans] for t, spans in zip(texts, found)
    ] == [
        [("I will be in Lyon for two weeks", "LOCATION", "ner")],
        [("Nothing here", "LOCATION", "ner")],
    ]
    duration = NerDetector(str(save_biased(tmp_path, "B-duration"))).detect(texts)
    # A length of stay points back to the writer too: it is replaced (types.yaml).
    assert [[s.type for s in spans] for spans in duration] == [["SPAN_OF_TIME"], ["SPAN_OF_TIME"]]


def test_a_folder_without_tag_names_or_model_is_named(checkpoint, tmp_path):
    with pytest.raises(ConfigError, match="no fine-tuned model there"):
        NerDetector(str(tmp_path))
    model = token_classifier(resolve_encoder(None), 3)  # LABEL_0, LABEL_1, LABEL_2
    model.save_pretrained(tmp_path)
    with pytest.raises(ConfigError, match="its labels are not BIO tags"):
        NerDetector(str(tmp_path))
