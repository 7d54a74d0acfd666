"""The language-model side of de-identification, on the generation engines (in-process or
served behind an OpenAI-compatible endpoint).

- `rewrite`: the resume de-identification study's in-prompt de-identification (docs/references.md): the model writes the whole
  document again with fictitious details.
- `abstract`: the Ticket Generator thesis's anonymisation: a neutral description of the request.
- the `llm` detector: the model lists the personal data it sees (`TYPE: text` lines); each
  listed string is located in the document, and one the document does not hold (the
  model made it up) is dropped.

The prompts and few-shot examples are data (synth/data/deid/prompts.yaml). Sampling is
temperature only (top-k and top-p off, no repetition penalty: a rewrite copies most of
its input), as that study's temperature sweep assumes.
"""

import functools
import re
import zlib
from dataclasses import replace

from synth import DATA_DIR, ConfigError
from synth.deid.spans import Span
from synth.deid.types import personal_types
from synth.generation.engine import FailedPrompt
from synth.generation.params import GenerationParams
from synth.io.files import read_yaml

PROMPTS_FILE = DATA_DIR / "deid" / "prompts.yaml"
LLM_METHODS = ("rewrite", "abstract")
# A reply ends at the model's end of turn or at the token cap, never at a sentence count.
WHOLE_REPLY = GenerationParams(
    sentences_per_slot=10_000,
    paragraphs_per_slot=10_000,
    top_k=0,
    top_p=1.0,
    repetition_penalty=1.0,
    max_retries=0,
)
LINE = re.compile(r"^\s*[-*\d.)\s]*([A-Z_]+)\s*:\s*(.+?)\s*$")


@functools.cache
def prompts() -> dict:
    doc = read_yaml(PROMPTS_FILE, "de-identification prompts")
    for task in (*LLM_METHODS, "detect"):
        entry = doc.get(task)
        if not isinstance(entry, dict) or not entry.get("system"):
            raise ConfigError(f"{PROMPTS_FILE}: '{task}' needs a system instruction")
        for i, example in enumerate(entry.get("examples", [])):
            if not (example.get("document") and example.get("answer")):
                raise ConfigError(f"{PROMPTS_FILE}: {task} example {i} needs document and answer")
    return doc


def make_engine(model: str, endpoint: dict | None = None, device: str = "auto"):
    """The engine for `model`: the in-process one `backend: auto` picks here, or the
    endpoint's for `openai:NAME`."""
    from synth.generation.backends import Backend

    return Backend.of(model, "auto", device or "auto", endpoint=endpoint).build()


def check_model(model: str, endpoint: dict | None = None) -> None:
    """On the driver, before Ray starts: the model resolves or the endpoint answers."""
    from synth.generation.backends import Backend

    try:
        Backend.of(model, endpoint=endpoint).prepare()
    except ConfigError as e:  # generate's config field is this job's option
        message = str(e).replace("engine.base_url", "--base-url")
        raise ConfigError(message.replace("engine.api_key_env", "--api-key-env")) from None


class LlmTask:
    """One prompt task (rewrite, abstract or detect) over a batch of documents."""

    def __init__(
        self,
        engine,
        task: str,
        temperature: float,
        max_new_tokens: int,
        seed: int,
        batch_size: int = 16,
    ):
        self.engine, self.task, self.seed, self.batch_size = engine, task, seed, batch_size
        self.entry = prompts()[task]
        self.params = replace(WHOLE_REPLY, temperature=temperature, do_sample=temperature > 0)
        if temperature <= 0:
            self.params = replace(self.params, temperature=1.0)
        self.cap = max_new_tokens

    def messages(self, text: str) -> list[dict]:
        turns = [{"role": "system", "content": self.entry["system"]}]
        for example in self.entry.get("examples", []):
            turns.append({"role": "user", "content": example["document"]})
            turns.append({"role": "assistant", "content": example["answer"]})
        return turns + [{"role": "user", "content": text}]

    def run(self, texts: list[str]) -> list[str]:
        """The model's reply per document (a FailedPrompt where the engine gave up), in
        engine calls of `batch_size` documents."""
        replies = []
        for i in range(0, len(texts), self.batch_size):
            replies += self._call(texts[i : i + self.batch_size])
        return replies

    def _call(self, texts: list[str]) -> list[str]:
        """One engine call. The seed is the job's seed with the call's first document, so
        a rerun of the same shard gets the same replies."""
        words = max(len(t.split()) for t in texts)
        budget = int(words * self.entry.get("tokens_per_word", 1.0) + self.entry.get("extra", 16))
        params = replace(self.params, max_new_tokens=max(8, min(self.cap, budget)))
        seed = (self.seed * 1_000_003 + zlib.crc32(texts[0].encode())) % 2**31
        prompts_ = [self.engine.chat_prompt(self.messages(t)) for t in texts]
        replies, _, _ = self.engine.continue_prompts(prompts_, params, seed)
        return replies


def clean_reply(reply: str) -> str:
    """The reply without the chat model's end-of-turn leftovers and edge blank space."""
    for marker in ("<|im_end|>", "<|endoftext|>", "</s>"):
        reply = reply.split(marker, 1)[0]
    return reply.strip()


def located_spans(text: str, listed: str, detector: str = "llm") -> list[Span]:
    """`TYPE: text` lines → spans at every occurrence of each text in the document (case
    folded); unknown types and made-up strings are dropped."""
    names = set(personal_types().names)
    spans, lowered = [], text.lower()
    for line in listed.splitlines():
        match = LINE.match(line)
        if not match or match.group(1) not in names:
            continue
        value = match.group(2).strip().strip("\"'")
        if len(value) < 2:
            continue
        # Every occurrence, whatever its case, whole words only ("Al" listed is not the
        # "al" of "approval").
        for found in re.finditer(rf"(?<!\w){re.escape(value.lower())}(?!\w)", lowered):
            spans.append(Span(found.start(), found.end(), match.group(1), detector))
    return spans


class LlmDetector:
    """The instruction model as a detector (synth.deid.analyzer.detectors' interface)."""

    name = "llm"

    def __init__(self, engine, *settings):
        """`settings`: LlmTask's after the task (temperature, max_new_tokens, seed, …)."""
        self.task = LlmTask(engine, "detect", *settings)

    def detect(self, texts: list[str]) -> list[list[Span]]:
        replies = self.task.run(texts)
        return [located_spans(t, clean_reply(r), self.name) for t, r in zip(texts, replies)]


def reply_error(reply: str) -> str | None:
    """Why a rewrite or abstract cannot be used (the row is written without text)."""
    if isinstance(reply, FailedPrompt):
        return f"the model failed: {reply.reason}"
    if not clean_reply(reply):
        return "the model's reply was empty"
    return None
