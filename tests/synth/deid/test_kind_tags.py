"""Labels per kind inside the model (synth.deid.analyzer.kind_tags): a CV label is never
predicted in a ticket, a clause type never in a CV, in use (masked decoding) and in
training (the loss is over the tags a row's kind allows). The head here is biased, not
trained: plumbing on the real packaged encoder; the trained detector is measured in
benchmarks/deid/detector.py."""

import pytest
import torch

from synth.deid.analyzer.detectors import NerDetector
from synth.deid.analyzer.kind_tags import allowed_tags, document_kind, kind_tags
from synth.encoder import (
    load_tokenizer,
    masked_token_loss,
    predict_word_tags,
    resolve_encoder,
    token_classifier,
)

TAGS = ["O", "B-location", "I-location", "B-company", "I-company", "B-complaint", "I-complaint"]
CV = "Ana Souza\n\nExperience\n----------\nZensol Automation, Lyon\n\nEducation\n---------\nBSc"
TICKET = "Hi HR, I flew to Lyon on Monday for the Zensol Automation audit. Thanks, Ana"


def test_each_kind_names_its_own_tags():
    by_kind = kind_tags(TAGS)
    assert by_kind["ticket"] == ["O", "B-location", "I-location", "B-complaint", "I-complaint"]
    assert by_kind["cv"] == ["O", "B-location", "I-location", "B-company", "I-company"]
    assert document_kind(CV) == "cv" and document_kind(TICKET) == "ticket"
    with pytest.raises(ValueError, match="kind 'memo'"):
        allowed_tags(TAGS, by_kind, "memo")


def biased(folder, winner: str, runner_up: str, with_kinds: bool = True):
    """A token classifier that says `winner` everywhere and `runner_up` next."""
    model = token_classifier(resolve_encoder(None), len(TAGS))
    model.config.id2label = dict(enumerate(TAGS))
    model.config.label2id = {t: i for i, t in enumerate(TAGS)}
    if with_kinds:
        model.config.kind_tags = kind_tags(TAGS)
    with torch.no_grad():
        model.classifier.bias[TAGS.index(winner)] = 1e4
        model.classifier.bias[TAGS.index(runner_up)] = 5e3
    model.save_pretrained(folder)
    load_tokenizer(resolve_encoder(None)).save_pretrained(folder)
    return folder


def test_a_cv_label_is_never_predicted_in_a_ticket(tmp_path):
    """The head's favourite is `company` (a CV label): a ticket gets its best ticket tag
    (the place stays a place), a CV gets `company`."""
    detector = NerDetector(str(biased(tmp_path, "I-company", "I-location")))
    ticket, cv = detector.detect([TICKET, CV])
    assert {s.type for s in ticket} == {"LOCATION"}, ticket
    assert "ORGANIZATION" in {s.type for s in cv}, cv


def test_a_clause_type_is_never_predicted_in_a_cv(tmp_path):
    detector = NerDetector(str(biased(tmp_path, "I-complaint", "I-location")))
    detector.sentences = None  # the model's tags alone
    _, cv = detector.detect([TICKET, CV])
    assert cv and {s.type for s in cv} == {"LOCATION"}, cv


def test_a_detector_built_before_labels_per_kind_keeps_the_gate_after_the_model(tmp_path):
    detector = NerDetector(str(biased(tmp_path, "I-company", "I-location", with_kinds=False)))
    assert detector.kind_tags is None and detector.gated_after
    ticket, _ = detector.detect([TICKET, CV])
    assert ticket == []  # dropped after the model: the old detector's behaviour


def test_masked_decoding_and_loss_read_only_the_allowed_tags():
    model = token_classifier(resolve_encoder(None), len(TAGS))
    tokenizer = load_tokenizer(resolve_encoder(None))
    with torch.no_grad():
        model.classifier.bias[TAGS.index("B-company")] = 1e4
    allowed = [allowed_tags(TAGS, kind_tags(TAGS), "ticket")]
    tags = predict_word_tags(model, tokenizer, ["Lyon"], TAGS, allowed=allowed)[0]
    assert tags != ["B-company"] and all("company" not in t for t in tags)
    # the loss over the allowed tags is the cross-entropy of their softmax alone
    logits = torch.randn(1, 3, len(TAGS), requires_grad=True)
    targets = torch.tensor([[0, 1, -100]])
    mask = torch.tensor(allowed)
    loss = masked_token_loss(logits, targets, mask)
    keep = [i for i, a in enumerate(allowed[0]) if a]
    sub = logits[0, :2][:, keep]
    expected = torch.nn.functional.cross_entropy(sub, torch.tensor([keep.index(0), keep.index(1)]))
    assert torch.allclose(loss, expected, atol=1e-5)
    loss.backward()  # a masked tag's score gets no gradient: the loss never pushes a ticket from it
    assert torch.all(logits.grad[0, :, TAGS.index("B-company")].abs() < 1e-12)
