"""CLS+entity NER (thesis §4.3.3): spaCy proposes candidates, an encoder labels them.

Candidates: spaCy entities whose type is in SPACY_TYPES' mapping. Gold label of a
candidate: `<ticket label>|<entity label>` of the first gold span it overlaps (shares at
least one character with) whose entity label maps to the candidate's spaCy type; `O`
when there is none. Features: the encoder's [CLS] vector ⊕ the mean of the candidate's
word-piece vectors. Scores over candidates, micro-averaged over every class but `O`: a
candidate predicted as an entity is a true positive when the prediction equals its gold
label, else a false positive; a gold-entity candidate predicted otherwise is a false
negative. Gold entities no candidate overlaps are reported apart (`gold_missed`), with a
recall that counts them (`end_to_end_recall`), because the Ticket Generator thesis's figure leaves them out.
"""

import torch

from eval.metrics import prf
from synth import encoder

NONE = "O"
# Entity label -> spaCy entity types that may propose it (docs/evaluation.md, "Tasks").
SPACY_TYPES = {
    "location": {"GPE", "LOC"},
    "duration": {"DATE"},
    "date": {"DATE"},
    "date_start_absence": {"DATE"},
    "date_travel": {"DATE"},
    "number_of_days": {"DATE"},
    "wage_gap": {"PERCENT"},
    "increase_in_percentage": {"PERCENT"},
    "salary": {"MONEY"},
}
CANDIDATE_TYPES = set().union(*SPACY_TYPES.values())


def candidates(nlp, texts: list[str], batch_size: int = 64) -> list[list[tuple[int, int, str]]]:
    """(start, end, spaCy type) of every candidate in every text."""
    return [
        [(e.start_char, e.end_char, e.label_) for e in doc.ents if e.label_ in CANDIDATE_TYPES]
        for doc in nlp.pipe(texts, batch_size=batch_size)
    ]


def gold_label(candidate: tuple[int, int, str], ticket_label: str, spans) -> str:
    start, end, kind = candidate
    for s, e, label in spans:
        if start < e and s < end and kind in SPACY_TYPES.get(label, ()):
            return f"{ticket_label}|{label}"
    return NONE


def missed(cands, spans) -> int:
    """Gold spans of a mappable label that no candidate overlaps."""
    return sum(
        1
        for s, e, label in spans
        if label in SPACY_TYPES and not any(cs < e and s < ce for cs, ce, _ in cands)
    )


def scores(gold: list[str], predicted: list[str], gold_missed: int) -> dict:
    tp = sum(g == p != NONE for g, p in zip(gold, predicted))
    n_pred = sum(p != NONE for p in predicted)
    n_gold = sum(g != NONE for g in gold)
    found = prf(tp, n_pred, tp, n_gold)
    return {
        "precision": found["precision"],
        "recall": found["recall"],
        "f1": found["f1"],
        "candidates": len(gold),
        "gold_candidates": n_gold,
        "predicted_entities": n_pred,
        "gold_missed": gold_missed,
        "end_to_end_recall": tp / (n_gold + gold_missed) if n_gold + gold_missed else 0.0,
    }


class CandidateClassifier(torch.nn.Module):
    """Encoder + one linear layer over [CLS] ⊕ mean of the candidate's pieces."""

    def __init__(self, encoder_model, num_labels: int):
        super().__init__()
        self.encoder = encoder_model
        self.head = torch.nn.Linear(2 * encoder_model.config.hidden_size, num_labels)

    def forward(self, input_ids, attention_mask, span_mask, labels=None, **extra):
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, **extra
        ).last_hidden_state
        weights = span_mask.unsqueeze(-1).to(hidden.dtype)
        mean = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1)
        logits = self.head(torch.cat([hidden[:, 0], mean], dim=-1))
        loss = torch.nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


def span_mask(offsets: torch.Tensor, starts, ends) -> torch.Tensor:
    """1 on the word pieces inside each row's candidate span."""
    s = torch.as_tensor(list(starts)).unsqueeze(1)
    e = torch.as_tensor(list(ends)).unsqueeze(1)
    return (
        (offsets[..., 0] >= s) & (offsets[..., 1] <= e) & (offsets[..., 1] > offsets[..., 0])
    ).long()


@torch.no_grad()
def predict_candidates(model, tokenizer, items: list, batch_size: int = 32) -> list[int]:
    """items: (text, start, end) of each candidate; one class index each."""
    model.eval()
    out = []
    for i in range(0, len(items), batch_size):
        chunk = items[i : i + batch_size]
        enc = encoder.encode(tokenizer, [t for t, _, _ in chunk])
        offsets = enc.pop("offset_mapping")
        enc["span_mask"] = span_mask(offsets, [s for _, s, _ in chunk], [e for _, _, e in chunk])
        out += model(**enc)[1].argmax(-1).tolist()
    return out
