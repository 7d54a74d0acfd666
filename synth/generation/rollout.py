"""Recursive `<generate>` filling, batched across documents (a "rollout").

Slot j of every document in the batch is generated in one call, its prompt being all
text before it (header + body so far); then slot j+1, and so on. An empty slot (nothing
left after trimming) is retried for just those rows, a bounded number of times; a slot
that stays empty gets the draft's fallback for it (a plain line its planner built from
the document's own attributes, recorded in `fallback_slots`); with none, a slot the
model ended at once (the end of text as its first token) is the end of a document
whose template already says it, and any other is recorded in the row's `error`; either
way the document keeps its fixed text.

A draft carries its own prompt style: `free` drafts (the model writes the whole ticket
from an attribute card) are generated in a call of their own with free_params. A draft
with a target length skips its later slots once the text would already reach it.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from synth.generation.engine import (
    Engine,
    FailedPrompt,
    SlotRequest,
    StreamingEngine,
    checked_continuations,
)
from synth.generation.params import GenerationParams, free_params, long_params
from synth.generation.seeds import request_seed
from synth.generation.trimming import (
    cut_to_words,
    sentence_ends,
    trim_free,
    trim_items,
    trim_slot,
    years_claimed,
)

SYSTEM = "You write realistic, concise workplace emails in plain English."
FREE_SYSTEM = "You write short, realistic emails that employees send to their HR department."
# Words in an average generated sentence (SmolLM2's tickets: 16.5 on 160 new-default ones).
WORDS_PER_SENTENCE = 16
# SmolLM2's tokens per English word, about (for a progress estimate only).
TOKENS_PER_WORD = 1.4


@dataclass
class Draft:
    header: str
    pieces: list[str]  # fixed text around the slots: len = slots + 1
    instruction: str  # the chat style's instruction, or the free style's attribute card
    style: str = "plain"
    target_words: int | None = None
    # Free style: a draft is kept only when it holds one of these (the values as written).
    needles: tuple[str, ...] = ()
    # The draft's own draws (a streaming engine's per-request seeds): set from the run's
    # seed and the document, so its text does not depend on the batch it is in.
    seed: int | None = None
    # Per slot: what it says when the model leaves it empty after its retries ('' or
    # none: the slot stays empty, an error).
    fallbacks: tuple[str, ...] = ()
    # The most years a slot may claim (a CV's total experience): a slot that says more
    # contradicts the document and is written again. None: no bound.
    most_years: int | None = None
    slots: list[str] = field(default_factory=list)
    fallback_slots: list[int] = field(default_factory=list)  # 1-based: written from data
    # The next slot's text so far, when its last attempt was cut by the token limit before
    # a sentence ended: the next attempt continues it instead of starting again.
    partial: str = ""
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

    def words_if_stopped(self) -> int:
        """Words the ticket would have if every slot left were skipped."""
        rest = self.pieces[len(self.slots) + 1 :]
        return len((self.body_so_far() + " " + " ".join(rest)).split())

    def text(self) -> str:
        """The finished body: single spaces, no trailing blanks, at most one blank line."""
        body = self.body_so_far()
        body = re.sub(r"[ \t]+", " ", body)
        body = re.sub(r" *\n *", "\n", body)
        return re.sub(r"\n{3,}", "\n\n", body).strip()


def build_prompt(draft: Draft, engine: Engine) -> str:
    body = draft.body_so_far()
    so_far = (draft.header + "\n\n" + body).rstrip() if draft.header else body.rstrip()
    if draft.partial:  # the slot's cut text, continued where the limit stopped it
        so_far += draft.partial
        body = body.rstrip() + draft.partial
    if draft.style == "plain":
        return so_far
    system, start = (FREE_SYSTEM, body) if draft.style == "free" else (SYSTEM, so_far)
    messages = [
        {"role": "system", "content": system},
        {"role": "user", "content": draft.instruction},
    ]
    opening = engine.chat_prompt(messages)
    return opening + start


def expected_tokens(pieces: list[str], target_words: int | None, params: GenerationParams) -> int:
    """About how many tokens a document's slots will take: the words its target still
    lacks, or its slots' sentences, each slot at most its token limit (retries aside).
    For a progress estimate, never a decision."""
    slots = len(pieces) - 1
    if target_words:
        missing = max(target_words - len(" ".join(pieces).split()), 0)
        return int(missing * TOKENS_PER_WORD)
    per_slot = params.sentences_per_slot * WORDS_PER_SENTENCE * TOKENS_PER_WORD
    return int(slots * min(params.max_new_tokens, per_slot))


def _skip_past_target(draft: Draft) -> None:
    """Skip a draft's slots once its text is within half a sentence of its target length
    (a sentence more would overshoot by more than it fills): a short ticket may be its
    template's own words alone, as a short human ticket is."""
    while (
        draft.target_words
        and len(draft.slots) < len(draft.pieces) - 1
        and draft.target_words - draft.words_if_stopped() < WORDS_PER_SENTENCE / 2
    ):
        draft.slots.append("")


def _sentences(draft: Draft, cap: int) -> int:
    """Sentences the draft's next slot should keep: without a target, `cap`; with one,
    the words still missing spread over the slots left, at WORDS_PER_SENTENCE a
    sentence, rounded, at least one and at most `cap`."""
    if not draft.target_words:
        return cap
    missing = draft.target_words - draft.words_if_stopped()
    slots_left = len(draft.pieces) - 1 - len(draft.slots)
    return max(1, min(cap, round(missing / (slots_left * WORDS_PER_SENTENCE))))


def _call_group(draft: Draft, params: GenerationParams) -> str:
    """free: the whole ticket; long: a slot that needs more sentences than a regular
    call keeps (a long target); regular: the rest."""
    if draft.style == "free":
        return "free"
    if (
        draft.target_words
        and _sentences(draft, long_params(params).sentences_per_slot) > params.sentences_per_slot
    ):
        return "long"
    return "regular"


def _holding(text: str, needles: tuple[str, ...]) -> str:
    """`text` if it holds one of `needles` (any case), else '' (the slot is retried)."""
    lowered = text.lower()
    return text if not needles or any(n.lower() in lowered for n in needles) else ""


def _free_text(raw: str, draft: Draft) -> str:
    """A free draft's text cut to its target length; uncut when the cut would lose every
    value it holds ('' when it holds none: the draft is retried)."""
    whole = trim_free(raw)
    if not draft.target_words:
        return _holding(whole, draft.needles)
    cut = cut_to_words(whole, draft.target_words - draft.words_if_stopped())
    return _holding(cut, draft.needles) or _holding(whole, draft.needles)


def fill_slots(
    drafts: list[Draft],
    engine: Engine,
    params: GenerationParams,
    seed: int,
    on_finished: Callable[[list[int]], None] | None = None,
) -> list[Draft]:
    """Generate every slot of every draft in place; returns the drafts. `on_finished`
    gets the positions of drafts as they finish (each once), so progress can count a
    document when its last slot comes back rather than when the whole batch does.

    A streaming engine (one that batches continuously) gets each draft's next slot as
    soon as its last one comes back (`_stream_slots`). Any other engine gets calls: each
    call batches every row that still has work, its next slot or a retry of a slot that
    came back empty, so a batch needs max(slots + retries) calls, not the sum. Free-form
    drafts, and slots of long tickets that need more sentences than a regular call keeps,
    take calls of their own with their own parameters.
    """
    if isinstance(engine, StreamingEngine) and params.num_beams == 1 and not params.force_words:
        return _stream_slots(drafts, engine, params, seed, on_finished)
    failures = [0] * len(drafts)
    calls = 0
    group_params = _group_params(params)
    unfinished = set(range(len(drafts)))
    while True:
        for d in drafts:
            _skip_past_target(d)
        pending = [i for i, d in enumerate(drafts) if len(d.slots) < len(d.pieces) - 1]
        if on_finished is not None and len(unfinished) > len(pending):
            on_finished(sorted(unfinished - set(pending)))
        unfinished = set(pending)
        if not pending:
            return drafts
        groups = {name: [] for name in group_params}  # regular first: old seeds hold
        for i in pending:
            groups[_call_group(drafts[i], params)].append(i)
        for name, group in groups.items():
            if not group:
                continue
            used = group_params[name]
            prompts = [build_prompt(drafts[i], engine) for i in group]
            texts, counts, prompt_counts = checked_continuations(
                engine, prompts, engine.continue_prompts(prompts, used, seed + calls)
            )
            calls += 1
            for i, raw, n, pn in zip(group, texts, counts, prompt_counts):
                failures[i] = _take(drafts[i], raw, n, pn, used, name, failures[i])


def _group_params(params: GenerationParams) -> dict[str, GenerationParams]:
    return {"regular": params, "long": long_params(params), "free": free_params(params)}


def _take(
    d: Draft, raw: str, n: int, pn: int, used: GenerationParams, group: str, failures: int
) -> int:
    """Record one continuation of `d`'s next slot: the slot filled, or (empty after
    trimming) left to be retried, or given up after `used.max_retries`; returns the
    slot's failures so far."""
    d.generated_tokens += n
    d.prompt_tokens += pn
    if isinstance(raw, FailedPrompt):  # the engine has retried it already
        d.errors.append(f"slot {len(d.slots) + 1}: {raw.reason}")
        d.slots.append("")
        d.partial = ""
        return 0
    cut = n >= used.max_new_tokens and group != "free"  # the limit stopped it, not the model
    raw, d.partial = d.partial + raw, ""
    trimmed = (
        _free_text(raw, d)
        if group == "free"
        else trim_slot(raw, _sentences(d, used.sentences_per_slot))
        or trim_items(raw, d.pieces[len(d.slots)])
    )
    if (
        trimmed
        and d.most_years is not None
        and max(years_claimed(trimmed), default=0) > d.most_years
    ):
        trimmed = ""  # "30 years of experience" in a CV of 10: contradicts the header
    if trimmed:
        d.slots.append(trimmed)
        return 0
    if cut and _unfinished_sentence(raw):
        d.partial = raw  # its next attempt finishes the sentence the limit cut
    if failures + 1 > used.max_retries:
        _give_up(d, failures + 1, ended=group != "free" and not raw.strip())
        return 0
    return failures + 1


def _unfinished_sentence(raw: str) -> bool:
    """Whether `raw` is prose on one line that no sentence end has closed yet (the first
    sentence of a slot, longer than its token limit). Lines of names or fragments are no
    sentence to finish: the slot is drawn again."""
    text = raw.strip()
    return bool(text) and "\n" not in text and not sentence_ends(text)


def _give_up(d: Draft, attempts: int, ended: bool = False) -> None:
    """The slot the model left empty `attempts` times: its fallback when the draft has
    one; else, when its last attempt `ended` the text at once (no word before the end of
    text) and the draft's own text holds a whole sentence, an empty slot and no error:
    the model read the document as finished, and it is, in its template's words (issue
    81: 30 of the 31 detector tickets with an empty slot had no header, and SmolLM2 ends
    a bare "How do I get my flight to Reus refunded?" at once, as a one-line ticket);
    else an error and an empty slot."""
    slot = len(d.slots)
    fallback = d.fallbacks[slot] if slot < len(d.fallbacks) else ""
    if fallback:
        d.fallback_slots.append(slot + 1)
    elif not (ended and sentence_ends(" ".join(d.pieces))):
        d.errors.append(f"slot {slot + 1} empty after {attempts} attempts")
    d.slots.append(fallback)
    d.partial = ""


def _stream_slots(
    drafts: list[Draft],
    engine: StreamingEngine,
    params: GenerationParams,
    seed: int,
    on_finished: Callable[[list[int]], None] | None = None,
) -> list[Draft]:
    """fill_slots on a streaming engine: every draft's first slot waits at once, and a
    draft's next slot (or its retry) joins the moment its last one comes back, so the
    engine's batch stays full until the last drafts finish."""
    failures = [0] * len(drafts)
    group_params = _group_params(params)

    def next_slot(i: int, continues: bool) -> list[SlotRequest]:
        d = drafts[i]
        _skip_past_target(d)
        if len(d.slots) >= len(d.pieces) - 1:
            return []
        group = _call_group(d, params)
        used = group_params[group]
        own = request_seed(seed, i) if d.seed is None else d.seed
        # Stop at the sentences the slot keeps, not the group's cap: a long CV slot that
        # keeps 5 sentences wrote up to its 270-token limit, and trimming threw the rest
        # away (issue 81: 8 long CVs on hf wrote 2.2 tokens per word they kept).
        keeps = (
            used.sentences_per_slot if group == "free" else _sentences(d, used.sentences_per_slot)
        )
        return [
            SlotRequest(
                (i, group),
                build_prompt(d, engine),
                used.max_new_tokens,
                keeps,
                used.paragraphs_per_slot,
                seed=request_seed(own, len(d.slots), failures[i]),
                continues=continues,
            )
        ]

    def finished(i: int, requests: list[SlotRequest]) -> list[SlotRequest]:
        if not requests and on_finished is not None:
            on_finished([i])
        return requests

    def on_result(key, raw: str, n: int, pn: int) -> list[SlotRequest]:
        i, group = key
        failures[i] = _take(drafts[i], raw, n, pn, group_params[group], group, failures[i])
        return finished(i, next_slot(i, True))

    first = [slot for i in range(len(drafts)) for slot in finished(i, next_slot(i, False))]
    engine.continue_stream(first, params, on_result, seed)
    return drafts
