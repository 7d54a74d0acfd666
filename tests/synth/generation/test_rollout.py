"""Plumbing of the batched rollout with a scripted fake model (the real one: tests/docs)."""

import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.generation.params import params_from
from synth.generation.render import render, render_fitting
from synth.generation.rollout import Draft, fill_slots
from synth.kinds import plan_documents


class ScriptedGenerator:
    """Returns queued continuations; records every batch's prompts."""

    model_ref = "scripted"

    def __init__(self, replies):
        self.replies, self.calls = list(replies), []

    def continue_prompts(self, prompts, params, seed):
        self.calls.append(prompts)
        out = [self.replies.pop(0) for _ in prompts]
        return out, [5] * len(prompts), [len(p) for p in prompts]


def docs(n=3, **overrides):
    cfg = load_config(
        None,
        {
            "num_docs": n,
            "labels": ["Complaint_Complaint"],
            "reference_date": "2026-11-22",
            **overrides,
        },
    )
    return plan_documents(cfg, "run")[0]


def test_slots_are_batched_in_order_and_prompts_hold_all_text_before(monkeypatch):
    planned = docs(4)
    slots = [len(j.pieces) - 1 for j in planned]
    fake = ScriptedGenerator([f" Sentence {i}." for i in range(sum(slots))])
    rows = render(planned, fake, params_from(), "plain", seed=0)
    assert len(fake.calls[0]) == 4  # slot 1 of every document in one call
    assert [len(c) for c in fake.calls] == [sum(s > j for s in slots) for j in range(max(slots))]
    for row, doc in zip(rows, planned):
        assert "<generate>" not in row["text"] and "${" not in row["text"]
        assert doc.pieces[0].strip()[:20] in row["text"]
    second = fake.calls[1][0] if len(fake.calls) > 1 else None
    if second:
        assert "Sentence" in second  # slot 2's prompt contains slot 1's text


def test_empty_slots_are_retried_then_recorded():
    planned = docs(1)
    n_slots = len(planned[0].pieces) - 1
    params = params_from("default", {"max_retries": 1})
    # Slot 1: unfinished twice -> recorded as empty; later slots succeed.
    fake = ScriptedGenerator([" and then", " half a"] + [" Fine."] * n_slots)
    row = render(planned, fake, params, "plain", seed=0)[0]
    assert row["error"] == "slot 1 empty after 2 attempts"
    assert row["generated_tokens"] == 5 * (2 + n_slots - 1)


class ParamsRecorder(ScriptedGenerator):
    """Also records the parameters of every call."""

    def continue_prompts(self, prompts, params, seed):
        self.params = getattr(self, "params", []) + [params]
        return super().continue_prompts(prompts, params, seed)


SIX_SENTENCES = " One two three. Four five six. Seven eight. Nine ten. Eleven. Twelve."


def test_a_bullet_slot_keeps_the_list_the_model_continues():
    draft = Draft("", ["Key responsibilities:\n- ", "\n\nSKILLS"], "")
    fake = ScriptedGenerator([" Ran payroll\n- Hired a team\n\n"])
    fill_slots([draft], fake, params_from(), seed=0)
    assert draft.errors == [] and len(fake.calls) == 1
    assert draft.text() == "Key responsibilities:\n- Ran payroll\n- Hired a team\n\nSKILLS"


def test_a_short_target_met_by_the_template_alone_generates_nothing():
    draft = Draft(
        header="",
        pieces=["I need three days off from Monday for the dentist.", ""],
        instruction="",
        target_words=8,
    )
    fake = ParamsRecorder([])
    fill_slots([draft], fake, params_from(), seed=0)
    assert fake.calls == [] and draft.slots == [""] and not draft.errors


def test_long_targets_get_calls_with_more_sentences_and_tokens():
    params = params_from()
    regular = Draft(header="", pieces=["Hello.", ""], instruction="")
    long = Draft(header="", pieces=["Hello.", ""], instruction="", target_words=80)
    fake = ParamsRecorder([SIX_SENTENCES, SIX_SENTENCES])
    fill_slots([regular, long], fake, params, seed=0)
    assert [len(c) for c in fake.calls] == [1, 1]  # regular first, then the long group
    assert fake.params[0] == params
    assert fake.params[1].max_new_tokens == 3 * params.max_new_tokens
    assert regular.slots == ["One two three. Four five six."]  # sentences_per_slot = 2
    # 79 words missing over one slot at 16 words a sentence: 5 sentences (cap 6).
    assert long.slots == [SIX_SENTENCES.strip().removesuffix(" Twelve.")]


def test_the_long_slot_factor_sets_what_a_long_slot_may_take():
    params = params_from("default", {"long_slot_factor": 6})
    long = Draft(header="", pieces=["Hello.", ""], instruction="", target_words=200)
    fake = ParamsRecorder([SIX_SENTENCES * 2])
    fill_slots([long], fake, params, seed=0)
    assert fake.params[0].max_new_tokens == 6 * params.max_new_tokens
    assert fake.params[0].sentences_per_slot == 12  # 6 x 2: the factor 3 would keep 6
    assert len(long.slots[0].split(". ")) == 12
    with pytest.raises(ConfigError, match="long_slot_factor must be >= 1"):
        params_from("default", {"long_slot_factor": 0})


def test_a_target_spreads_its_missing_words_over_the_slots_left():
    draft = Draft(header="", pieces=["Hi.", " ", ""], instruction="", target_words=56)
    fake = ParamsRecorder([SIX_SENTENCES, SIX_SENTENCES])
    fill_slots([draft], fake, params_from(), seed=0)
    # 55 missing over 2 slots: 2 sentences (6 words); then 49 over 1: 3 sentences, a long
    # call's; then 41 missing, but no slot left.
    assert draft.slots == [
        "One two three. Four five six.",
        "One two three. Four five six. Seven eight.",
    ]
    assert [p.sentences_per_slot for p in fake.params] == [2, 6]


def test_a_slot_is_skipped_when_half_a_sentence_or_less_is_missing():
    draft = Draft(
        header="", pieces=["One two three four five.", " ", ""], instruction="", target_words=14
    )
    fake = ParamsRecorder([SIX_SENTENCES])
    fill_slots([draft], fake, params_from(), seed=0)
    # 9 missing: one sentence (3 words); then 6 missing < 8: the last slot is skipped.
    assert draft.slots == ["One two three.", ""] and len(fake.calls) == 1
    assert all(p.max_new_tokens == params_from().max_new_tokens for p in fake.params)


class OutOfMemoryError(RuntimeError):
    """Named like torch's CUDA out-of-memory error."""


class SmallDevice(ScriptedGenerator):
    """Fails any call of more than 2 prompts, the way a full GPU does."""

    def continue_prompts(self, prompts, params, seed):
        if len(prompts) > 2:
            raise OutOfMemoryError(f"{len(prompts)} prompts do not fit")
        return super().continue_prompts(prompts, params, seed)


def test_a_batch_that_runs_out_of_memory_is_retried_in_halves(capsys):
    planned = docs(5)
    fake = SmallDevice([" Fine."] * 100)
    rows = render_fitting(planned, fake, params_from(), "plain", seed=0)
    assert [r["id"] for r in rows] == [d.id for d in planned]
    assert all(r["error"] is None for r in rows) and max(map(len, fake.calls)) <= 2
    assert "out of memory at a batch of 5: retrying as 2 + 3" in capsys.readouterr().out
    empty = SmallDevice([])  # out of replies: any other error is not retried
    with pytest.raises(IndexError):
        render_fitting(planned[:2], empty, params_from(), "plain", seed=0)
    assert len(empty.calls) == 1


class CountedGenerator(ScriptedGenerator):
    """Queued (continuation, generated tokens) pairs: a count at the call's limit means
    the token limit cut the continuation."""

    def continue_prompts(self, prompts, params, seed):
        self.calls.append(prompts)
        out = [self.replies.pop(0) for _ in prompts]
        return [t for t, _ in out], [n for _, n in out], [len(p) for p in prompts]


def test_a_slot_the_model_leaves_empty_gets_its_fallback_line_not_an_error():
    """Issue 81: half the detector CVs failed a build on which CPU wrote them; a slot still
    empty after its attempts now says the line its planner built from the document's own
    attributes, and the row records which slot that was."""
    params = params_from("default", {"max_retries": 2})
    draft = Draft("", ["Skills: SQL, ", "\n\nLANGUAGES\nGerman. ", ""], "")
    draft.fallbacks = ("backups and replication.", "")
    fake = ScriptedGenerator([" and then", " half a", "\n\n"] + [" and"] * 3)
    fill_slots([draft], fake, params, seed=0)
    assert draft.slots[0] == "backups and replication." and draft.fallback_slots == [1]
    # a slot with no fallback line is still an error, as before
    assert draft.errors == ["slot 2 empty after 3 attempts"] and draft.slots[1] == ""
    assert draft.text() == "Skills: SQL, backups and replication.\n\nLANGUAGES\nGerman."


def test_a_slot_the_model_ends_at_once_ends_a_ticket_its_template_already_wrote():
    """Issue 81: a headerless "How do I get my flight to Reus refunded?" is a one-line
    ticket to SmolLM2, which ends it at once on every draw. Its text is whole, so the
    empty slot is no error; a slot the model filled with words trimming threw away is."""
    params = params_from("default", {"max_retries": 1})
    draft = Draft("", ["How do I get my flight to Reus refunded?", ""], "")
    fake = ScriptedGenerator(["", " \n"])
    fill_slots([draft], fake, params, seed=0)
    assert draft.errors == [] and draft.slots == [""] and len(fake.calls) == 2
    assert draft.text() == "How do I get my flight to Reus refunded?"
    # the last attempt wrote words, thrown away: an error, as before
    draft = Draft("", ["How do I get my flight to Reus refunded?", ""], "")
    fill_slots([draft], ScriptedGenerator(["", "\nA: The answer is"]), params, seed=0)
    assert draft.errors == ["slot 1 empty after 2 attempts"]
    # a template with no whole sentence of its own is no document without its slot
    draft = Draft("", ["Dear HR,\n\n", ""], "")
    fill_slots([draft], ScriptedGenerator(["", ""]), params, seed=0)
    assert draft.errors == ["slot 1 empty after 2 attempts"]


def test_a_row_records_its_fallback_slots():
    planned = docs(1)
    n_slots = len(planned[0].pieces) - 1
    planned[0].fallbacks = ["From the data."] * n_slots
    params = params_from("default", {"max_retries": 0})
    fake = ScriptedGenerator([" and then"] + [" Fine."] * (n_slots - 1))
    row = render(planned, fake, params, "plain", seed=0)[0]
    assert row["fallback_slots"] == [1] and row["error"] is None
    assert "From the data." in row["text"]


def test_a_sentence_cut_by_the_token_limit_is_continued_not_thrown_away():
    """Issue 81's main cause: a 24-token CV slot whose first sentence is longer than 24
    tokens came back with no sentence end, was trimmed to nothing and drawn again, three
    times. Its next attempt now continues the cut text."""
    params = params_from("default", {"max_new_tokens": 8})
    draft = Draft("", ["PROFILE\nI am a tester.", ""], "")
    fake = CountedGenerator([(" I have tested web shops for", 8), (" several banks. Then", 4)])
    fill_slots([draft], fake, params, seed=0)
    assert fake.calls[1][0] == "PROFILE\nI am a tester. I have tested web shops for"
    assert draft.slots == ["I have tested web shops for several banks."]
    assert draft.errors == [] and draft.generated_tokens == 12
    # ended by the model (not the limit) with no sentence: drawn again from the start
    draft = Draft("", ["PROFILE\nI am a tester.", ""], "")
    fake = CountedGenerator([(" I have tested web shops for", 3), (" I test shops.", 4)])
    fill_slots([draft], fake, params, seed=0)
    assert fake.calls[1][0] == "PROFILE\nI am a tester." and draft.slots == ["I test shops."]


def test_a_slot_claiming_more_years_than_the_document_is_written_again():
    draft = Draft("", ["I am a tester with 10 years of experience.", ""], "")
    draft.most_years = 10
    fake = ScriptedGenerator([" I have 30 years of experience.", " I led ten years of audits."])
    fill_slots([draft], fake, params_from(), seed=0)
    assert draft.slots == ["I led ten years of audits."] and len(fake.calls) == 2


def test_documents_finished_twice_by_an_out_of_memory_retry_are_counted_once(tmp_path):
    """Progress counts a document when its last slot is written (issue 94, item 8); a
    batch retried in halves finishes some documents again, and the count stays its size."""
    from synth.deid.audit import AuditSettings
    from synth.shard_writer import Render, ShardWriter

    class FullAfterItsFirstCall(ScriptedGenerator):
        def continue_prompts(self, prompts, params, seed):
            if self.calls and len(prompts) > 2:
                raise OutOfMemoryError(f"{len(prompts)} prompts do not fit")
            return super().continue_prompts(prompts, params, seed)

    planned = docs(5)  # slots 3, 3, 1, 3, 1: two finish at the first call, then it fails
    assert [len(d.pieces) - 1 for d in planned] == [3, 3, 1, 3, 1]
    counted = []
    engine = FullAfterItsFirstCall([" Fine."] * 100)
    render = Render(engine, params_from(), "plain", 0, 5, counted.append)
    writer = ShardWriter(render, AuditSettings(policy="off"), str(tmp_path))
    written = writer.write(planned)
    assert [summary["rows"] for _, summary in written] == [5]
    assert sum(counted) == 5 and counted[0] == 2  # the first call's two, counted once
