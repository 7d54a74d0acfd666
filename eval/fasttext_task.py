"""fastText baseline classifier: the Ticket Generator thesis's hyperparameters, and a preset for few long documents.

`bucket` is lowered from fastText's 2,000,000 to 200,000: with word n-grams the saved
model is 40 MB instead of 400 MB at the same accuracy (STACK.md). One thread, so a
seed gives the same model.

Why a second preset: fastText makes one update per training line and spreads it over
every word of that line. A hundred whole CVs of ~400 words each therefore barely move
the weights: on the development split the Ticket Generator thesis setting predicted one role for every
test CV, and even 50 epochs left training accuracy at 0.07. `LONG_DOCUMENTS` trains on
20-word windows, each carrying its document's label (about 20 times the updates), and
still predicts on the whole document. Its numbers were found on the development corpus.
Which preset trains a given corpus is chosen on that corpus's training data only
(`choose_preset`: a stratified validation split), never on its test set, so a new
corpus is not scored with a setting tuned on another one. Where the training documents
name the template that wrote them, the split keeps each template on one side: the model
will meet writing that shares no template with its training set, and a split that puts
one template's tickets on both sides rewards memorising its wording (word trigrams did
best there and worst on held-out templates: 0.975 vs 0.961 weighted F1 on a random
split, 0.54 vs 0.58 macro F1 on held-out templates, 1,408 tickets of the mixed default).

Text is lower-cased with punctuation split off before training and prediction, as
fastText's own tutorial prepares its data: fastText splits on whitespace only, so
"shift," "Shift" and "shift" would be three words, and our writer slips lower-case
sentence starts at random.

Library: `fasttext-wheel` 0.9.2, not `fasttext-numpy2` 0.10.4. The latter, on these
small files, gave different models from the same seed with one thread and stopped with
"Encountered NaN" at random (lr 0.01 included); 0.9.2 gave the same model five times
out of five. Its single-string `predict` fails on numpy 2, so documents are predicted
as a list, which returns plain lists. A run that still diverges is retried at half the
learning rate, up to three times; the learning rate that trained is returned.
"""

import re
import tempfile
from pathlib import Path

THESIS = {
    "ws": 5,
    "epoch": 20,
    "minCount": 1,
    "wordNgrams": 3,
    "lr": 0.5,
    "lrUpdateRate": 100,
    "t": 1e-4,
}
LONG_DOCUMENTS = {**THESIS, "epoch": 50, "lr": 0.5, "wordNgrams": 1, "window": 20}
BUCKET = 200_000
RETRIES = 3


def normalise(text: str) -> str:
    """One line (fastText reads a document per line), lower-cased, punctuation apart
    (apostrophes kept inside words)."""
    return " ".join(re.sub(r"([^\w\s'])", r" \1 ", text.lower()).split())


def _tag(label: str) -> str:
    return "__label__" + re.sub(r"\s+", "~", label)


def _training_lines(texts: list[str], labels: list[str], window: int | None) -> str:
    lines = []
    for text, label in zip(texts, labels):
        words = normalise(text).split()
        spans = (
            [words]
            if window is None
            else [words[i : i + window] for i in range(0, len(words), window)]
        )
        lines += [f"{_tag(label)} {' '.join(span)}\n" for span in spans if span]
    return "".join(lines)


def train_and_predict(
    texts: list[str], labels: list[str], test_texts: list[str], seed: int = 0, preset: dict = THESIS
) -> tuple[list[str], dict]:
    """Predicted labels for test_texts, and the hyperparameters that trained."""
    import fasttext

    params = {k: v for k, v in preset.items() if k != "window"}
    by_tag = {_tag(label): label for label in set(labels)}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "train.txt")
        path.write_text(_training_lines(texts, labels, preset.get("window")), encoding="utf-8")
        for attempt in range(RETRIES + 1):
            try:
                model = fasttext.train_supervised(
                    str(path), bucket=BUCKET, thread=1, seed=seed, verbose=0, **params
                )
                break
            except RuntimeError as error:
                if "NaN" not in str(error) or attempt == RETRIES:
                    raise
                params["lr"] /= 2
    predicted = [by_tag[tags[0]] for tags in model.predict([normalise(t) for t in test_texts])[0]]
    return predicted, {**preset, "lr": params["lr"]}


PRESETS = {"THESIS": THESIS, "LONG_DOCUMENTS": LONG_DOCUMENTS}
VALIDATION_SHARE = 0.2


def validation_split(
    labels: list[str], seed: int, groups: list | None = None
) -> tuple[list[int], list[int]]:
    """(fit, validation) indices, stratified by label. Documents of one group (the
    template that wrote them; None: a group of its own) stay on one side. A label with
    ≥ 2 groups puts round(share · groups), at least one, in validation and keeps at least
    one to fit on."""
    import numpy as np

    rng = np.random.default_rng(seed)
    groups = groups if groups is not None else [None] * len(labels)
    keys = [g if g is not None else ("document", i) for i, g in enumerate(groups)]
    fit_idx, val_idx = [], []
    for label in sorted(set(labels)):
        members: dict = {}
        for i, x in enumerate(labels):
            if x == label:
                members.setdefault(keys[i], []).append(i)
        units = list(members.values())
        units = [units[i] for i in rng.permutation(len(units))]
        k = min(max(1, round(len(units) * VALIDATION_SHARE)), len(units) - 1)
        val_idx += [i for unit in units[:k] for i in unit]
        fit_idx += [i for unit in units[k:] for i in unit]
    return sorted(fit_idx), sorted(val_idx)


def choose_preset(
    texts: list[str],
    labels: list[str],
    names: tuple[str, ...],
    seed: int = 0,
    groups: list | None = None,
) -> tuple[str, dict]:
    """The preset among `names` with the best weighted F1 on a validation split of the
    training documents (ties: the first named), and every candidate's score. `groups`:
    each document's template, kept on one side of the split."""
    from sklearn.metrics import f1_score

    if len(names) == 1:
        return names[0], {}
    fit_idx, val_idx = validation_split(labels, seed, groups)
    if len({labels[i] for i in val_idx}) < 2:  # too few documents to tell presets apart
        return names[0], {}
    scores = {}
    for name in names:
        predicted, _ = train_and_predict(
            [texts[i] for i in fit_idx],
            [labels[i] for i in fit_idx],
            [texts[i] for i in val_idx],
            seed,
            PRESETS[name],
        )
        truth = [labels[i] for i in val_idx]
        scores[name] = float(f1_score(truth, predicted, average="weighted", zero_division=0))
    return max(names, key=lambda n: (scores[n], -names.index(n))), scores


def train_chosen_and_predict(
    texts: list[str],
    labels: list[str],
    test_texts: list[str],
    names: tuple[str, ...],
    seed: int = 0,
    groups: list | None = None,
) -> tuple[list[str], dict]:
    """Predicted labels for test_texts from the preset `choose_preset` picks, and the
    hyperparameters with the choice and its validation scores."""
    name, scores = choose_preset(texts, labels, names, seed, groups)
    predicted, used = train_and_predict(texts, labels, test_texts, seed, PRESETS[name])
    chosen = {"preset": name, "validation_weighted_f1": scores} if scores else {"preset": name}
    return predicted, used | chosen
