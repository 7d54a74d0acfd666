"""fastText baseline classifier with the thesis's hyperparameters.

`bucket` is lowered from fastText's 2,000,000 to 200,000: with word n-grams the saved
model is 40 MB instead of 400 MB at the same accuracy (STACK.md). One thread, so a
seed gives the same model.
"""

import re
import tempfile
from pathlib import Path

THESIS = {"ws": 5, "epoch": 20, "minCount": 1, "wordNgrams": 3, "lr": 0.5,
          "lrUpdateRate": 100, "t": 1e-4}
BUCKET = 200_000


def _line(text: str) -> str:
    return " ".join(text.split())  # fastText reads one document per line


def _tag(label: str) -> str:
    return "__label__" + re.sub(r"\s+", "~", label)


def train_and_predict(texts: list[str], labels: list[str], test_texts: list[str],
                      seed: int = 0) -> list[str]:
    import fasttext

    by_tag = {_tag(label): label for label in set(labels)}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "train.txt")
        path.write_text("".join(f"{_tag(y)} {_line(x)}\n" for x, y in zip(texts, labels)),
                        encoding="utf-8")
        model = fasttext.train_supervised(str(path), bucket=BUCKET, thread=1, seed=seed,
                                          verbose=0, **THESIS)
    return [by_tag[model.predict(_line(t))[0][0]] for t in test_texts]
