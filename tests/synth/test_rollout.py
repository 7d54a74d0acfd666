"""Plumbing of the batched rollout with a scripted fake model (the real one: tests/jobs)."""

from synth.config import load_config
from synth.documents import render
from synth.params import params_from
from synth.plan import plan_documents


class ScriptedGenerator:
    """Returns queued continuations; records every batch's prompts."""

    model_ref = "scripted"
    tokenizer = None

    def __init__(self, replies):
        self.replies, self.calls = list(replies), []

    def continue_prompts(self, prompts, params, seed):
        self.calls.append(prompts)
        out = [self.replies.pop(0) for _ in prompts]
        return out, [5] * len(prompts), [len(p) for p in prompts]


def jobs(n=3, **overrides):
    cfg = load_config(None, {"num_docs": n, "labels": ["Complaint_Complaint"],
                             "reference_date": "2026-11-22", **overrides})
    return plan_documents(cfg, "run")[0]


def test_slots_are_batched_in_order_and_prompts_hold_all_text_before(monkeypatch):
    planned = jobs(4)
    slots = [len(j["pieces"]) - 1 for j in planned]
    fake = ScriptedGenerator([f" Sentence {i}." for i in range(sum(slots))])
    rows = render(planned, fake, params_from(), "plain", seed=0)
    assert len(fake.calls[0]) == 4  # slot 1 of every document in one call
    assert [len(c) for c in fake.calls] == [sum(s > j for s in slots) for j in range(max(slots))]
    for row, job in zip(rows, planned):
        assert "<generate>" not in row["text"] and "${" not in row["text"]
        assert job["pieces"][0].strip()[:20] in row["text"]
    second = fake.calls[1][0] if len(fake.calls) > 1 else None
    if second:
        assert "Sentence" in second  # slot 2's prompt contains slot 1's text


def test_empty_slots_are_retried_then_recorded():
    planned = jobs(1)
    n_slots = len(planned[0]["pieces"]) - 1
    params = params_from("default", {"max_retries": 1})
    # Slot 1: unfinished twice -> recorded as empty; later slots succeed.
    fake = ScriptedGenerator([" and then", " half a"] + [" Fine."] * n_slots)
    row = render(planned, fake, params, "plain", seed=0)[0]
    assert row["error"] == "slot 1 empty after 2 attempts"
    assert row["generated_tokens"] == 5 * (2 + n_slots - 1)
