"""Sentence embeddings come from the packaged encoder's own sentence-transformers `encode`
since issue 47; before, hrsynth mean-pooled MiniLM's hidden states itself. The old
pooling is kept here as the reference: on the dev sets' texts (and odd whitespace, CJK)
both give the same unit vectors to float precision."""

import json
from pathlib import Path

import numpy as np
import torch

from synth import encoder

ROOT = Path(__file__).resolve().parents[2]
SETS = ["eval/data/dev_tickets.jsonl", "eval/data/dev_people.jsonl", "eval/data/dev_cvs.jsonl"]
ODD = ["tabs\tand  double  spaces", "Meeting in 東京 today", "x\u200by", "Café naïve résumé"]


def old_embeddings(texts: list[str], batch_size: int = 32) -> np.ndarray:
    from transformers import AutoModel

    name = encoder.resolve_encoder(None)
    tokenizer, model = encoder.load_tokenizer(name), AutoModel.from_pretrained(name).eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(texts), batch_size):
            enc = encoder.encode(tokenizer, texts[i : i + batch_size])
            enc.pop("offset_mapping")
            hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
            out.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
    return np.concatenate(out)


def test_the_packaged_encode_gives_the_old_embeddings_on_the_projects_texts():
    texts = [
        json.loads(line)["text"]
        for name in SETS
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
    ] + ODD
    new, old = encoder.sentence_embeddings(texts), old_embeddings(texts)
    assert new.shape == old.shape == (len(texts), 384)
    assert np.allclose(np.linalg.norm(new, axis=1), 1.0, atol=1e-5)
    assert float(np.abs(new - old).max()) < 1e-4
