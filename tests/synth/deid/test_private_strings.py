"""An installed method's replacement never carries a private string out (issue 94, PLUG1
and PLUG2): read as the writer and readers read it, it holds neither its span's original
nor any other original the process has seen; a hit refuses the document in one line."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from synth import ConfigError, plugins
from synth.deid.anonymizer import methods
from synth.deid.anonymizer.operators import anonymized
from synth.deid.anonymizer.private_strings import SeenPrivate, folded
from synth.deid.spans import Span
from synth.deid.writing import job_steps
from synth.steps import Batch, run_steps

ZWSP = "\u200b"


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" for c in text)


class Hidden:
    """Returns the original with a zero-width space between its letters (PLUG1)."""

    def replace(self, kind, original):
        return ZWSP.join(original)


class Wide:
    """Returns the original in full-width letters (PLUG1)."""

    def replace(self, kind, original):
        return full_width(original)


EARLIER: list[str] = []  # what Remembers was given, across its instances


class Remembers:
    """Returns, for each span, the other originals its class was given before (PLUG2): a
    method that keeps what earlier calls told it, in a module's memory."""

    def replace(self, kind, original, context):
        others = [o for o in EARLIER if o != original]
        EARLIER.append(original)
        return " and ".join(others) or "someone"


class Honest:
    def replace(self, kind, original):
        return "Jordan Casey" if kind == "PERSON" else "somewhere"


@pytest.fixture
def installed(monkeypatch):
    """The classes above installed as methods by name; a fresh process memory."""
    classes = {"hidden": Hidden, "wide": Wide, "remembers": Remembers, "honest": Honest}
    monkeypatch.setattr(
        plugins,
        "installed",
        lambda group: {n: f"{__name__}:{c.__name__}" for n, c in classes.items()},
    )
    monkeypatch.setattr(methods, "SEEN", SeenPrivate())
    monkeypatch.setattr("synth.deid.anonymizer.operators.SEEN", methods.SEEN)
    EARLIER.clear()


def spans_of(text: str, *names: str, kind: str = "PERSON") -> list[Span]:
    return [Span(text.index(n), text.index(n) + len(n), kind, "test") for n in names]


def test_folding_reads_what_a_reader_reads():
    assert folded(f"M{ZWSP}a{ZWSP}r{ZWSP}i{ZWSP}a") == "maria"
    assert folded(full_width("Maria Lopez")) == "maria lopez"
    assert folded("MARIA\n\tLOPEZ") == "maria lopez"


def test_remembered_originals_are_found_as_whole_word_runs():
    seen = SeenPrivate()
    seen.remember(["Maria Lopez", "555-0100", "HR", "Al"])
    assert seen.found_in("ask ｍａｒｉａ  LOPEZ today")
    assert seen.found_in("call 555 0100")
    assert not seen.found_in("Maria Lopezz")  # another word
    assert not seen.found_in("HR and Al")  # too short to compare: innocent words
    assert len(seen) == 2


def test_the_memory_is_bounded_oldest_first():
    seen = SeenPrivate(limit=2)
    seen.remember(["Maria Lopez", "Paul Martin", "Ines Duarte"])
    assert not seen.found_in("Maria Lopez") and seen.found_in("Ines Duarte")


@pytest.mark.parametrize("method", ["hidden", "wide"])
def test_the_original_hidden_by_width_or_invisible_characters_is_refused(installed, method):
    text = "Please ask Maria Lopez about it."
    with pytest.raises(methods.LeakingReplacement) as raised:
        anonymized(["d"], [text], [spans_of(text, "Maria Lopez")], method, 0)
    line = str(raised.value)
    assert line.startswith(f"method {method!r} returned a replacement that holds the original")
    assert "PERSON span" in line and "Maria" not in line and "Lopez" not in line


def test_another_documents_original_is_refused_whichever_comes_first(installed):
    """Document b's replacement holds document a's name: refused, though b comes first in
    the batch (the batch's originals are seen before any is replaced)."""
    texts = ["Ines Duarte asked.", "Maria Lopez asked."]
    found = [spans_of(texts[0], "Ines Duarte"), spans_of(texts[1], "Maria Lopez")]
    with pytest.raises(methods.LeakingReplacement, match="another span's original"):
        anonymized(["a", "b"], texts, found, "remembers", 0)


def test_an_honest_method_passes_and_the_driver_trial_refuses_a_leak(installed):
    text = "Ines Duarte asked about Lisbon."
    found = [spans_of(text, "Ines Duarte") + spans_of(text, "Lisbon", kind="LOCATION")]
    (done,) = anonymized(["a"], [text], found, "honest", 0)
    assert done.text == "Jordan Casey asked about somewhere."
    with pytest.raises(ConfigError, match="method 'hidden' returned a replacement that holds"):
        methods.check_chosen("hidden")


def test_the_job_writes_the_refused_document_without_text_and_the_others(installed, tmp_path):
    """The refusal is the document's: written without text, its error one line naming
    the method and the type, never the text; the other documents are written."""

    class Names:
        def detect(self, texts):
            return [
                [s for n in ("Maria Lopez", "Ines Duarte") if n in t for s in spans_of(t, n)]
                for t in texts
            ]

    block = pa.table(
        {
            "id": ["a", "b", "c"],
            "original_id": ["a", "b", "c"],
            "text": ["Maria Lopez asked.", "Ines Duarte asked.", "Nothing personal here."],
            "label": [None] * 3,
            "shard": [0] * 3,
        }
    )
    options = {"method": "remembers", "seed": 0, "country": "US", "run_id": "r"}
    run_steps(job_steps(options, str(tmp_path), None, ([Names()], None)), Batch.of_table(block))
    rows = pq.read_table(tmp_path).sort_by("id").to_pylist()
    assert [r["text"] for r in rows] == [None, None, "Nothing personal here."]
    for row in rows[:2]:  # each was given the other's name
        assert row["error"] == (
            "LeakingReplacement: method 'remembers' returned a replacement that holds "
            "another span's original seen in this run (read without invisible characters, "
            "width and case folded) for a PERSON span; it must write something else "
            "(docs/extending.md)"
        )
