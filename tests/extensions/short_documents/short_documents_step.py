"""A deidentify step: documents shorter than `min_words` words are left out of the
shareable output (a note that short says little and may be all name)."""

from synth.steps import Batch


class ShortDocuments:
    NAME = "short_documents"
    AFTER = "read"  # before anything reads the text
    NEEDS = ("text",)
    GIVES = ()

    def __init__(self, min_words: str = "3"):
        self.min_words = int(min_words)

    def run(self, batch: Batch) -> Batch:
        long_enough = [len(text.split()) >= self.min_words for text in batch["text"]]
        return batch.keep(long_enough, self.NAME, "documents shorter than min_words")
