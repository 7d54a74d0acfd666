"""fastText presets: windows for long documents, and a diverged run retried at half the lr."""

import json
from pathlib import Path

import fasttext
import pytest

from eval import fasttext_task

CVS = [
    json.loads(line)
    for line in Path(__file__)
    .parents[1]
    .joinpath("data", "cvs_small.jsonl")
    .read_text()
    .splitlines()
]


def test_windows_carry_the_document_label():
    lines = fasttext_task._training_lines(["a b c d e", "f"], ["x y", "z"], window=2)
    assert lines.splitlines() == [
        "__label__x~y a b",
        "__label__x~y c d",
        "__label__x~y e",
        "__label__z f",
    ]
    assert fasttext_task._training_lines(["a b c"], ["x"], window=None) == "__label__x a b c\n"


def test_long_documents_preset_fits_the_cvs_and_a_seed_gives_the_same_model():
    texts, labels = [c["text"] for c in CVS], [c["label"] for c in CVS]
    runs = [
        fasttext_task.train_and_predict(texts, labels, texts, 0, fasttext_task.LONG_DOCUMENTS)[0]
        for _ in range(3)
    ]
    assert sum(p == y for p, y in zip(runs[0], labels)) / len(labels) >= 0.9
    assert runs[0] == runs[1] == runs[2]  # fasttext-numpy2 0.10.4 failed this


def test_diverged_training_is_retried_at_half_the_learning_rate(monkeypatch):
    real, calls = fasttext.train_supervised, []

    def diverges_once(*args, **kwargs):
        calls.append(kwargs["lr"])
        if len(calls) == 1:
            raise RuntimeError("Encountered NaN.")
        return real(*args, **kwargs)

    monkeypatch.setattr(fasttext, "train_supervised", diverges_once)
    texts, labels = [c["text"] for c in CVS], [c["label"] for c in CVS]
    _, used = fasttext_task.train_and_predict(
        texts, labels, texts[:2], 0, fasttext_task.LONG_DOCUMENTS
    )
    assert calls == [0.5, 0.25] and used["lr"] == 0.25 and used["window"] == 20


def test_other_errors_are_not_retried(monkeypatch):
    def fails(*args, **kwargs):
        raise RuntimeError("some other failure")

    monkeypatch.setattr(fasttext, "train_supervised", fails)
    with pytest.raises(RuntimeError, match="other failure"):
        fasttext_task.train_and_predict(["a b"], ["x"], ["a"], 0)


def test_the_preset_is_chosen_on_training_documents_only():
    texts, labels = [c["text"] for c in CVS], [c["label"] for c in CVS]
    fit_idx, val_idx = fasttext_task.validation_split(labels, 0)
    assert sorted(fit_idx + val_idx) == list(range(len(CVS)))
    # 6 CVs per role: round(6 · 0.2) = 1 of each role in validation.
    assert sorted(labels[i] for i in val_idx) == sorted(set(labels))
    name, scores = fasttext_task.choose_preset(texts, labels, ("THESIS", "LONG_DOCUMENTS"), 0)
    assert set(scores) == {"THESIS", "LONG_DOCUMENTS"}
    assert name == max(scores, key=lambda n: (scores[n], n == "THESIS"))
    assert fasttext_task.choose_preset(texts, labels, ("THESIS",), 0) == ("THESIS", {})
    # One document per role leaves nothing to validate on: the first preset, no scores.
    assert fasttext_task.choose_preset(texts[:2], ["a", "b"], ("THESIS", "LONG_DOCUMENTS")) == (
        "THESIS",
        {},
    )


def test_text_is_lower_cased_with_punctuation_apart_for_training_and_prediction():
    assert fasttext_task.normalise("Shift change,\nplease!  I'm off (sick).") == (
        "shift change , please ! i'm off ( sick ) ."
    )
    lines = fasttext_task._training_lines(["Swap my Shift, please."], ["x"], window=None)
    assert lines == "__label__x swap my shift , please .\n"


def test_documents_of_one_template_stay_on_one_side_of_the_validation_split():
    # 2 labels × 5 templates × 3 tickets; the last ticket of each label has no template.
    labels, groups = [], []
    for label in "ab":
        for template in range(5):
            labels += [label] * 3
            groups += [f"{label}{template}"] * 3
        labels.append(label)
        groups.append(None)
    fit_idx, val_idx = fasttext_task.validation_split(labels, 0, groups)
    assert sorted(fit_idx + val_idx) == list(range(len(labels)))
    in_validation = {groups[i] for i in val_idx}
    assert not in_validation & {groups[i] for i in fit_idx} - {None}
    # 6 units a label (5 templates + 1 lone ticket): round(6 · 0.2) = 1 unit each.
    for label in "ab":
        units = {groups[i] or i for i in val_idx if labels[i] == label}
        assert len(units) == 1
    # Without groups every ticket is its own unit: 3 of 16 per label.
    _, val_idx = fasttext_task.validation_split(labels, 0)
    assert sum(labels[i] == "a" for i in val_idx) == 3


def test_the_chosen_preset_trains_the_final_model_and_is_reported():
    texts, labels = [c["text"] for c in CVS], [c["label"] for c in CVS]
    predicted, used = fasttext_task.train_chosen_and_predict(
        texts, labels, texts[:3], ("THESIS", "LONG_DOCUMENTS"), 0
    )
    name, scores = fasttext_task.choose_preset(texts, labels, ("THESIS", "LONG_DOCUMENTS"), 0)
    assert used["preset"] == name and used["validation_weighted_f1"] == scores
    assert (
        predicted
        == fasttext_task.train_and_predict(
            texts, labels, texts[:3], 0, fasttext_task.PRESETS[name]
        )[0]
    )
