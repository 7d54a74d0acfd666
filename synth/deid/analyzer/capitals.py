"""A view of a text with short runs of capitalised words written as names are.

spaCy's NER, which Presidio's PERSON and LOCATION come from, misses names in capitals:
`BOB SMITH approved my leave` and `… TURNER` were written as they stood by
`--detectors presidio` (issue 84). The presidio detector reads this view as well as the
text; each word keeps its length, so offsets are the text's own. Runs longer than
`max_run_words` (shouting, not a name) and the acronyms in capitals.yaml stay as written.
"""

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from synth.io.files import read_yaml

CAPITALS_FILE = Path(__file__).resolve().parents[2] / "data" / "deid" / "capitals.yaml"
SENTENCE = re.compile(r"[^\n.!?]+[.!?]*")
WORD = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*")


@dataclass(frozen=True)
class Settings:
    max_run_words: int
    kept: frozenset[str]


@cache
def settings() -> Settings:
    doc = read_yaml(CAPITALS_FILE, "capitals")
    return Settings(int(doc["max_run_words"]), frozenset(doc["kept"]))


def _capitalised(word: str) -> bool:
    letters = [ch for ch in word if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def name_case_view(text: str) -> tuple[str, list[tuple[int, int]]]:
    """(the view, the (start, end) of each word changed); the text itself when none is.
    A sentence where most words are capitals, more than a name holds, is shouting and
    stays as written (a sign-off "Regards, DANIEL TURNER" is a name)."""
    view, changed = list(text), []
    for sentence in SENTENCE.finditer(text):
        for start, end in _name_runs(sentence.group(0), sentence.start()):
            named = text[start:end].title()
            if len(named) == end - start:  # a letter whose case changes its length: kept
                view[start:end] = named
                changed.append((start, end))
    return "".join(view), changed


def _name_runs(sentence: str, offset: int) -> list[tuple[int, int]]:
    """The words of short runs of capitalised words in one sentence, as text offsets."""
    rules = settings()
    words = list(WORD.finditer(sentence))
    capitals = sum(_capitalised(m.group(0)) for m in words)
    if capitals > rules.max_run_words and capitals * 2 > len(words):
        return []
    found, run = [], []

    def close():
        if len(run) <= rules.max_run_words:
            found.extend((offset + m.start(), offset + m.end()) for m in run)
        run.clear()

    for m in words:
        if run and sentence[run[-1].end() : m.start()].strip(" ") != "":
            close()
        if _capitalised(m.group(0)) and m.group(0) not in rules.kept:
            run.append(m)
        else:
            close()
    close()
    return found
