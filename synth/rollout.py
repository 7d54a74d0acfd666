"""Recursive `<generate>` filling, batched across documents (a "rollout").

Slot j of every document in the batch is generated in one call, its prompt being all
text before it (header + body so far); then slot j+1, and so on. An empty slot (nothing
left after trimming) is retried for just those rows, a bounded number of times; a slot
that stays empty is recorded in the row's `error` and the ticket keeps its fixed text.
"""

import re
from dataclasses import dataclass, field

from synth.params import GenerationParams
from synth.trimming import trim_slot

SYSTEM = "You write realistic, concise workplace emails in plain English."


@dataclass
class Draft:
    header: str
    pieces: list[str]  # fixed text around the slots: len = slots + 1
    instruction: str  # used by the chat prompt style
    slots: list[str] = field(default_factory=list)
    generated_tokens: int = 0
    prompt_tokens: int = 0
    errors: list[str] = field(default_factory=list)

    def body_so_far(self) -> str:
        parts = []
        for i, piece in enumerate(self.pieces[: len(self.slots) + 1]):
            parts.append(piece)
            if i < len(self.slots) and self.slots[i]:
                sep = "" if not parts[-1] or parts[-1][-1].isspace() else " "
                parts.append(sep + self.slots[i])
        return "".join(parts)

    def text(self) -> str:
        """The finished body: single spaces, no trailing blanks, at most one blank line."""
        body = self.body_so_far()
        body = re.sub(r"[ \t]+", " ", body)
        body = re.sub(r" *\n *", "\n", body)
        return re.sub(r"\n{3,}", "\n\n", body).strip()


def build_prompt(draft: Draft, style: str, tokenizer) -> str:
    so_far = (draft.header + "\n\n" + draft.body_so_far()).rstrip()
    if style == "plain":
        return so_far
    messages = [{"role": "system", "content": SYSTEM},
                {"role": "user", "content": draft.instruction}]
    start = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return start + so_far


def fill_slots(drafts: list[Draft], generator, params: GenerationParams, style: str,
               seed: int) -> list[Draft]:
    """Generate every slot of every draft in place; returns the drafts.

    Each call batches every row that still has work: its next slot, or a retry of a slot
    that came back empty. Retries ride along with other rows' next slots instead of
    costing calls of their own, so a batch needs max(slots + retries) calls, not the sum.
    """
    failures = [0] * len(drafts)
    calls = 0
    while True:
        pending = [i for i, d in enumerate(drafts) if len(d.slots) < len(d.pieces) - 1]
        if not pending:
            return drafts
        prompts = [build_prompt(drafts[i], style, generator.tokenizer) for i in pending]
        texts, counts, prompt_counts = generator.continue_prompts(prompts, params, seed + calls)
        calls += 1
        for i, raw, n, pn in zip(pending, texts, counts, prompt_counts):
            d = drafts[i]
            d.generated_tokens += n
            d.prompt_tokens += pn
            trimmed = trim_slot(raw, params.sentences_per_slot)
            if trimmed:
                d.slots.append(trimmed)
                failures[i] = 0
                continue
            failures[i] += 1
            if failures[i] > params.max_retries:
                d.errors.append(f"slot {len(d.slots) + 1} empty after {failures[i]} attempts")
                d.slots.append("")
                failures[i] = 0
