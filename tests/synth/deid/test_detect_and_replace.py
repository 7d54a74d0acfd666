"""Presidio with the HR recognizers on documents we planted personal data in: nothing
planted survives either method, and the tag method writes each type's placeholder."""

import pytest

from synth.deid.detectors import make_detectors
from synth.deid.methods import deidentify
from synth.deid.privacy import privacy_score

# Written for this test: each value is one Presidio (with our recognizers) should find.
PLANTED = [
    (
        (
            "Hello, this is Maria Rossi (maria.rossi@example.com, +39 347 1234567). I was off "
            "with a bad flu from 03/06/2027; my IBAN is DE89370400440532013000."
        ),
        [
            "Maria Rossi",
            "maria.rossi@example.com",
            "+39 347 1234567",
            "a bad flu",
            "03/06/2027",
            "DE89370400440532013000",
        ],
    ),
    (
        (
            "Dear HR, I earn €45,400 and ask for a 9% raise, i.e. 49500 euros. Since my divorce "
            "I moved to Chicago. Best, John Miller"
        ),
        ["€45,400", "9%", "49500 euros", "my divorce", "Chicago", "John Miller"],
    ),
]


@pytest.fixture(scope="module")
def presidio():
    return make_detectors(["presidio"])


@pytest.mark.parametrize("method", ["tag", "surrogate"])
def test_no_planted_value_survives(presidio, method):
    ids = [f"d{i}" for i in range(len(PLANTED))]
    results = deidentify(ids, [t for t, _ in PLANTED], presidio, method, seed=0)
    for (text, planted), result in zip(PLANTED, results):
        assert privacy_score(planted, result.text) == 1.0, (result.text, planted)
        assert set(planted) <= {k["original"] for k in result.key}
        for span in result.spans:  # the spans point at what was written
            replaced = result.text[span.start : span.end]
            assert replaced == (f"[{span.type}]" if method == "tag" else replaced)
    if method == "tag":
        assert results[1].text == (
            "Dear HR, I earn [MONEY] and ask for a [PERCENT] raise, i.e. [MONEY]. Since "
            "[LIFE_EVENT] I moved to [LOCATION]. Best, [PERSON]"
        )


def test_presidio_basic_misses_what_the_hr_recognizers_add():
    basic = make_detectors(["presidio-basic"])
    (result,) = deidentify(["d"], [PLANTED[1][0]], basic, "tag", seed=0)
    assert "€45,400" in result.text and "my divorce" in result.text


@pytest.mark.parametrize(
    "text, name",
    [
        ("Hi HR,\nI need a room near the office.\nThanks,\nAnja", "Anja"),
        ("Dear HR, can I get a raise? Thanks, Paul", "Paul"),
        ("I am off sick today.\n\nAndrés Malo", "Andrés Malo"),
        ("Please help.\nThanks", None),  # a closing alone is no name
        ("Hello\nthe office said no.\nBest regards", None),
    ],
)
def test_a_signed_name_is_a_person(presidio, text, name):
    (spans,) = presidio[0].detect([text])
    people = [text[s.start : s.end] for s in spans if s.type == "PERSON"]
    assert people == ([name] if name else [])
