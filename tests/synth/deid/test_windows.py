import itertools
import random
import re

import pytest

from synth.deid.analyzer.windows import Windowed, merge_same_type, windows
from synth.deid.spans import Span


@pytest.mark.parametrize("seed", range(20))
def test_windows_cover_the_text_within_size_and_overlap(seed):
    rng = random.Random(seed)
    words = ["".join(rng.choices("abcdefgh", k=rng.randint(1, 15))) for _ in range(400)]
    text = "".join(w + rng.choice([" ", "\n", "  "]) for w in words)
    size, overlap = rng.randint(60, 200), rng.randint(10, 50)
    pieces = windows(text, size, overlap)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(text)
    assert all(end - start <= size for start, end in pieces)
    for (_, end), (start, _) in itertools.pairwise(pieces):
        assert end - start >= overlap  # every value shorter than the overlap is whole once


class FindsWholeNames:
    """Finds 'Paul Smith' only when the piece holds all of it (as a model would)."""

    name = "fake"

    def __init__(self):
        self.pieces = []

    def detect(self, texts):
        self.pieces += texts
        return [
            [Span(m.start(), m.end(), "PERSON", "fake") for m in re.finditer("Paul Smith", t)]
            for t in texts
        ]


def test_a_name_on_a_window_edge_is_found_whole_and_once():
    text = "filler " * 13 + "Paul Smith" + " and more words" * 10
    detector = Windowed(FindsWholeNames(), 100, 30)
    (spans,) = detector.detect([text])
    start = text.index("Paul Smith")
    assert spans == [Span(start, start + 10, "PERSON", "fake")]
    # the edge did cut it: a window holds only part of the name
    assert any(p.endswith("Paul") or p.startswith("Smith") for p in detector.detector.pieces)


def test_short_texts_are_one_window():
    detector = Windowed(FindsWholeNames(), 100, 30)
    assert detector.detect(["Paul Smith wrote"]) == [[Span(0, 10, "PERSON", "fake")]]
    assert detector.detector.pieces == ["Paul Smith wrote"]


def test_overlapping_pieces_of_one_type_merge_and_other_types_stay():
    spans = [Span(0, 4, "PERSON", "a"), Span(2, 10, "PERSON", "b"), Span(5, 8, "DATE", "a")]
    assert merge_same_type(spans) == [Span(0, 10, "PERSON", "a"), Span(5, 8, "DATE", "a")]


def test_presidio_finds_names_cut_by_its_windows():
    from synth.deid.analyzer.detectors import PresidioDetector

    people = ["Maria Gonzalez", "Thomas Becker", "Sophie Laurent", "James Wilson"]
    text = " ".join(
        f"Yesterday I spoke with {name} about the budget for next year and the plans."
        for name in people
    )
    size, overlap = 120, 60
    edges = [end for _, end in windows(text, size, overlap)]
    cut = [p for p in people if any(0 < e - text.index(p) < len(p) for e in edges)]
    assert cut == ["Thomas Becker", "James Wilson"]  # the test's premise
    spans = Windowed(PresidioDetector(), size, overlap).detect([text])[0]
    assert set(cut) <= {text[s.start : s.end] for s in spans if s.type == "PERSON"}


def test_a_detector_that_reads_documents_gets_each_window_s_whole_document():
    """The BIO detector judges a window by its document (its kind, whether it is a CV):
    the headings of a long CV lie in its first window only."""
    from synth.deid.analyzer.windows import Windowed

    class Recorder:
        name, reads_documents = "recorder", True

        def __init__(self):
            self.seen = []

        def detect(self, texts, documents=None):
            self.seen += list(zip(texts, documents))
            return [[] for _ in texts]

    long_cv = "Experience: sales. Education: BA. " + "Grew the team and cut churn. " * 40
    recorder = Recorder()
    Windowed(recorder, 200, 50).detect([long_cv, "short"])
    assert len(recorder.seen) > 2
    assert {doc for _, doc in recorder.seen} == {long_cv, "short"}
    assert all(piece in doc for piece, doc in recorder.seen)
