"""fastText baseline classifier: the thesis's hyperparameters, and a preset for few long documents.

`bucket` is lowered from fastText's 2,000,000 to 200,000: with word n-grams the saved
model is 40 MB instead of 400 MB at the same accuracy (STACK.md). One thread, so a
seed gives the same model.

Why a second preset: fastText makes one update per training line and spreads it over
every word of that line. A hundred whole CVs of ~400 words each therefore barely move
the weights: on the development split the thesis setting predicted one role for every
test CV, and even 50 epochs left training accuracy at 0.07. `LONG_DOCUMENTS` trains on
20-word windows, each carrying its document's label (about 20 times the updates), and
still predicts on the whole document. Its numbers were found on the development corpus.
Which preset trains a given corpus is chosen on that corpus's training data only
(`choose_preset`: a stratified validation split), never on its test set, so a new
corpus is not scored with a setting tuned on another one.

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


def _line(text: str) -> str:
    return " ".join(text.split())  # fastText reads one document per line


def _tag(label: str) -> str:
    return "__label__" + re.sub(r"\s+", "~", label)


def _training_lines(texts: list[str], labels: list[str], window: int | None) -> str:
    lines = []
    for text, label in zip(texts, labels):
        words = text.split()
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
    predicted = [by_tag[tags[0]] for tags in model.predict([_line(t) for t in test_texts])[0]]
    return predicted, {**preset, "lr": params["lr"]}


PRESETS = {"THESIS": THESIS, "LONG_DOCUMENTS": LONG_DOCUMENTS}
VALIDATION_SHARE = 0.2


def validation_split(labels: list[str], seed: int) -> tuple[list[int], list[int]]:
    """(fit, validation) indices, stratified: a label with ≥ 2 documents puts
    round(share · n), at least one, in validation and keeps at least one to fit on."""
    import numpy as np

    rng = np.random.default_rng(seed)
    fit_idx, val_idx = [], []
    for label in sorted(set(labels)):
        group = [i for i, x in enumerate(labels) if x == label]
        group = [group[i] for i in rng.permutation(len(group))]
        k = min(max(1, round(len(group) * VALIDATION_SHARE)), len(group) - 1)
        val_idx += group[:k]
        fit_idx += group[k:]
    return sorted(fit_idx), sorted(val_idx)


def choose_preset(
    texts: list[str], labels: list[str], names: tuple[str, ...], seed: int = 0
) -> tuple[str, dict]:
    """The preset among `names` with the best weighted F1 on a validation split of the
    training documents (ties: the first named), and every candidate's score."""
    from sklearn.metrics import f1_score

    if len(names) == 1:
        return names[0], {}
    fit_idx, val_idx = validation_split(labels, seed)
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
