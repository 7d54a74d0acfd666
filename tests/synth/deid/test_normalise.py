"""Characters that hide personal data from the detectors (zero-width, combining marks,
bidi controls) are taken out before detection, with offsets in the original text."""

import pytest

from synth.deid.analyzer.analyze import detect
from synth.deid.analyzer.normalise import normalise
from synth.deid.pipeline import deidentify

ZW, ZWJ, RLO, PDF = "\u200b", "\u200d", "\u202e", "\u202c"


@pytest.mark.parametrize(
    "written, read",
    [
        (f"Jo{ZW}hn Sm{ZW}ith", "John Smith"),
        ("J\u0336o\u0336h\u0336n\u0336", "John"),  # a stroke over every letter
        (f"{RLO}John{PDF}", "John"),
        (f"078{ZWJ}-05-11{ZW}20", "078-05-1120"),
        ("Jose\u0301 and José", "José and José"),  # an accent composes, it is not dropped
        ("ＪＯＨＮ", "JOHN"),  # full-width letters
        ("नमस्ते", "नमस्ते"),  # marks that spell another script are kept
        ("plain ASCII stays as it is", "plain ASCII stays as it is"),
    ],
)
def test_what_the_detectors_read(written, read):
    assert normalise(written).text == read


def test_offsets_map_back_to_the_text_as_written():
    written = f"Hi, I am Jo{ZW}hn Sm{ZW}ith."
    plain = normalise(written)
    start = plain.text.index("John Smith")
    a, b = plain.to_original(start, start + len("John Smith"))
    assert written[a:b] == f"Jo{ZW}hn Sm{ZW}ith"
    stroked = "Hi J\u0336o\u0336h\u0336n\u0336!"
    assert stroked[slice(*normalise(stroked).to_original(3, 7))] == "J\u0336o\u0336h\u0336n\u0336"


@pytest.fixture
def presidio(presidio_detectors):
    return presidio_detectors


def test_a_hidden_name_and_ssn_are_caught_with_offsets_in_the_original(presidio):
    text = (
        f"Hello HR, my name is Jo{ZW}hn Sm{ZW}ith and my SSN is 078{ZWJ}-05-11{ZW}20. "
        f"Please update my file. Thanks, {RLO}John Smith{PDF}"
    )
    spans = detect([text], presidio)[0]
    found = {(text[s.start : s.end], s.type) for s in spans}
    assert (f"Jo{ZW}hn Sm{ZW}ith", "PERSON") in found, found
    assert f"078{ZWJ}-05-11{ZW}20" in {written for written, _ in found}, found  # ID or PHONE
    result = deidentify(["d0"], [text], presidio, "surrogate", seed=0)[0]
    plain = normalise(result.text).text
    for secret in ("John", "Smith", "078-05-1120", "1120"):
        assert secret not in plain, result.text
