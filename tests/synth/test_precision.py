"""The encoder's precision (synth.precision): auto picks bf16 only where the CPU runs it
natively; texts batched by length come back in the order given; bf16 stays close to
float32 on the real packaged encoder."""

import numpy as np
import pytest
import torch

from synth import ConfigError, precision
from synth.encoder import (
    load_tokenizer,
    predict_word_tags,
    resolve_encoder,
    sentence_embeddings,
    token_classifier,
)


@pytest.mark.parametrize(("native", "expected"), [(True, "bfloat16"), (False, "float32")])
def test_auto_is_bf16_only_where_the_cpu_has_it(monkeypatch, native, expected):
    monkeypatch.setattr(precision, "native_bf16", lambda: native)
    assert precision.resolve_precision("auto") == expected
    assert precision.resolve_precision("auto", "cuda:0") == "bfloat16"
    assert precision.resolve_precision("float32") == "float32"


def test_bf16_asked_of_a_cpu_without_it_and_an_unknown_name_are_refused(monkeypatch):
    monkeypatch.setattr(precision, "native_bf16", lambda: False)
    with pytest.raises(ConfigError, match="no native bf16.*use auto or float32"):
        precision.resolve_precision("bfloat16")
    assert precision.resolve_precision("bfloat16", "cuda") == "bfloat16"
    with pytest.raises(ConfigError, match="--encoder-precision 'int8' unknown"):
        precision.resolve_precision("int8")


def test_at_precision_runs_a_layer_in_bf16_or_leaves_it():
    layer = torch.nn.Linear(4, 4)
    x = torch.ones(1, 4)
    with precision.at_precision("bfloat16"):
        assert layer(x).dtype == torch.bfloat16
    with precision.at_precision("float32"):
        assert layer(x).dtype == torch.float32


TAGS = ["O", "B-x", "I-x"]
TEXTS = [
    "A rather longer sentence that has many more words than the others do here.",
    "Short one.",
    "Middle length text with some words.",
    "Tiny",
    "Another fairly long sentence, written so that its batch pads the short ones a lot.",
]


@pytest.fixture(scope="module")
def tagger():
    torch.manual_seed(0)
    name = resolve_encoder(None)
    model = token_classifier(name, len(TAGS))
    model.config.id2label = dict(enumerate(TAGS))
    return model, load_tokenizer(name)


def test_texts_batched_by_length_come_back_in_the_order_given(tagger):
    """One text a batch is the reference: batching by length changes nothing but speed."""
    model, tokenizer = tagger
    alone_scores, batched_scores = [], []
    alone = [
        predict_word_tags(model, tokenizer, [t], TAGS, batch_size=1, scores=alone_scores)[0]
        for t in TEXTS
    ]
    batched = predict_word_tags(model, tokenizer, TEXTS, TAGS, batch_size=2, scores=batched_scores)
    assert [len(t) for t in batched] == [len(t) for t in alone]  # each text's own words
    assert batched == alone
    for a, b in zip(alone_scores, batched_scores):
        assert np.allclose(a, b, atol=1e-5)


def test_bf16_embeddings_stay_near_float32_on_the_packaged_encoder():
    sentences = [
        "My manager keeps shouting at me in front of the team.",
        "I need to change my shift because my daughter starts school.",
        "Thanks, Paul",
    ]
    a = sentence_embeddings(sentences)
    b = sentence_embeddings(sentences, precision="bfloat16")
    assert b.dtype == np.float32 and b.shape == a.shape
    cosine = (a * b).sum(axis=1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    assert cosine.min() > 0.99, cosine


def test_on_a_gpu_the_forward_pass_is_autocast_there(monkeypatch):
    """The GPU actor's path, checked on CPU (this torch has no CUDA to autocast on): the
    device is the GPU, auto is bf16 there and the autocast asked for is the GPU's."""
    asked = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch, "autocast", lambda device, dtype: asked.append((device, dtype)))
    device = precision.encoder_device()
    precision.at_precision(precision.resolve_precision("auto", device), device)
    assert (device, asked) == ("cuda", [("cuda", torch.bfloat16)])
