"""The shareable text holds no invisible character, and what an override shows is what
the detectors read (issue 72). Presidio (real, with hrsynth's HR recognizers) finds the
data; each case failed on the code before: the tag characters and the override's name
survived, the SSN with a variation selector was not found, and surrogates carried the
original's hidden characters."""

import pytest

from synth.deid.analyzer.normalise import normalise
from synth.deid.pipeline import deidentify
from synth.deid.visible import display_order, invisible, visible

RLO, PDF, ZWJ, ZWNJ, WJ = "\u202e", "\u202c", "\u200d", "\u200c", "\u2060"


def tagged(ascii_text: str) -> str:
    """ASCII written in Unicode tag characters: invisible, and decodable by a program."""
    return "".join(chr(0xE0000 + ord(ch)) for ch in ascii_text)


def hidden(text: str) -> list[str]:
    return [f"U+{ord(ch):04X}" for ch in text if invisible(ch)]


@pytest.fixture
def presidio(presidio_detectors):
    return presidio_detectors


@pytest.mark.parametrize("method", ["tag", "surrogate"])
def test_personal_data_in_tag_characters_is_not_shared(presidio, method):
    text = "Hi HR, please move my review to Friday." + tagged("Ann Lee, SSN 078-05-1120")
    result = deidentify(["d0"], [text], presidio, method, seed=0)[0]
    assert hidden(result.text) == []
    assert result.text.startswith("Hi HR, please move my review to")


def test_an_ssn_with_a_variation_selector_inside_is_found(presidio):
    text = "Hello, my SSN is 078\ufe0f-05-1120 and my name is John Smith."
    result = deidentify(["d0"], [text], presidio, "tag", seed=0)[0]
    assert "1120" not in result.text and hidden(result.text) == []
    assert any("078\ufe0f-05-1120" in entry["original"] for entry in result.key)


@pytest.mark.parametrize("method", ["tag", "surrogate"])
def test_a_name_reversed_by_an_override_is_read_as_shown_and_replaced(presidio, method):
    shown = "Hello HR, I am John Smith and I need a new badge."
    stored = f"Hello HR, I am {RLO}{'John Smith'[::-1]}{PDF} and I need a new badge."
    assert display_order(stored).text == shown
    result = deidentify(["d0"], [stored], presidio, method, seed=0)[0]
    for part in ("John", "nhoJ", "Smith", "htimS"):
        assert part not in result.text, result.text
    assert RLO not in result.text and PDF not in result.text
    assert result.text.endswith("and I need a new badge.")
    # the key keeps what was written, the override's characters included
    assert any("htimS" in entry["original"] for entry in result.key), result.key


def test_surrogates_do_not_inherit_hidden_characters(presidio):
    text = f"Please call Jo{WJ}hn Sm{ZWJ}ith on 555-0100{tagged('x')} about his ID 078-05-11{WJ}20."
    result = deidentify(["d0"], [text], presidio, "surrogate", seed=3)[0]
    assert hidden(result.text) == [], result.text
    assert all(hidden(entry["replacement"]) == [] for entry in result.key)


def test_the_text_outside_spans_reads_as_written_without_its_hidden_characters():
    assert visible(f"re{WJ}view\u00ad of the con\u200btract\ufeff") == "review of the contract"
    # joiners that spell: Persian's non-joiner and an emoji family stay
    assert visible(f"می{ZWNJ}خواهم") == f"می{ZWNJ}خواهم"
    family = f"\U0001f468{ZWJ}\U0001f469{ZWJ}\U0001f467"
    assert visible(family) == family
    assert visible(f"Jo{ZWJ}hn") == "John"  # between Latin letters it only hides


def test_offsets_of_a_reversed_run_map_back_to_the_original():
    stored = f"ok {RLO}cba{PDF} x"
    shown = display_order(stored)
    assert shown.text == "ok abc x"
    assert shown.original(3, 6) == "cba"
    assert normalise(shown.text).text == "ok abc x"


def test_every_default_ignorable_code_point_is_invisible():
    """The whole Default_Ignorable_Code_Point property (the `regex` module's Unicode
    tables, not hrsynth's list) and the blank-looking symbols: each is removed, save a
    joiner that spells (issue 84: Mongolian free variation selectors and Khmer inherent
    vowels were kept)."""
    import sys

    import regex

    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    every = [chr(c) for c in range(sys.maxunicode + 1) if ignorable.match(chr(c))]
    assert len(every) > 4000
    kept = [f"U+{ord(ch):04X}" for ch in every if not invisible(ch)]
    assert kept == []
    for blank in ("\u2800", "\u3164", "\uffa0", "\u115f", "\u1160"):
        assert visible(f"a{blank}b") == "ab"


@pytest.mark.parametrize(
    "text, value",
    [
        ("My SSN is 078-05\u180b-1120, please update payroll.", "1120"),
        ("My SSN is 078-05\u2800-1120, please update payroll.", "1120"),
        ("My SSN is 078-05\u17b4-1120, please update payroll.", "1120"),
        ("Please ask John Sm\u17b5ith about my badge.", "Smith"),
        ("Please ask John Sm\u180fith about my badge.", "Smith"),
    ],
)
def test_a_value_split_by_a_character_that_shows_nothing_is_found(presidio, text, value):
    result = deidentify(["d0"], [text], presidio, "tag", seed=0)[0]
    assert value not in result.text and hidden(result.text) == [], result.text
    assert "\u2800" not in result.text
