"""How a shareable document reads (eval.reading), and the public resumes it is measured on."""

import json

from eval.reading import Fluency, greetings_replaced, type_fit
from synth.deid.spans import Span
from synth.deid.types import personal_types
from tests.conftest import ROOT

RESUMES = ROOT / "eval" / "data" / "resumes_public" / "resumes.jsonl"


def test_type_fit_counts_the_surrogate_type_of_each_replaced_gold_span():
    gold = [[Span(0, 5, "LOCATION", "g"), Span(10, 15, "PERSON", "g"), Span(20, 25, "DATE", "g")]]
    # the city replaced as a company, the person as a person, the date left alone
    predicted = [[Span(0, 6, "ORGANIZATION", "p"), Span(9, 15, "PERSON", "p")]]
    fit = type_fit(gold, predicted)
    assert fit == {
        "rate": 0.5,
        "replaced": 2,
        "fit": 1,
        "misfits": {"LOCATION -> ORGANIZATION": 1},
    }
    # two predictions over one gold span: the one covering most of it decides
    most = type_fit(
        [[Span(0, 10, "CONDUCT", "g")]], [[Span(0, 2, "PERSON", "p"), Span(3, 10, "CONDUCT", "p")]]
    )
    assert most["rate"] == 1.0


def test_greetings_replaced_counts_those_the_output_lost():
    texts = ["Dear All,\nmy pay is late.", "Please call me.\nKind regards\nTom"]
    outputs = ["Acme Corp,\nmy pay is late.", "Please call me.\nKind regards\nBob"]
    assert greetings_replaced(texts, outputs) == {"greetings": 2, "replaced": 1, "documents": 1}


def test_fluency_reads_a_garbled_output_as_worse_than_the_original():
    fluency = Fluency()
    texts = ["I need three days off next week because my daughter is getting married."]
    garbled = ["I need three days off next week because Acme Corp Ltd wedding the of married."]
    change = fluency.change(texts + texts, texts + garbled)
    assert change["worst"] == [1]  # the garbled one, named to be read
    assert fluency.losses(garbled)[0] > fluency.losses(texts)[0] + 0.5
    assert change["median_change"] > 0  # (0 + the garbled rise) / 2


def test_the_public_resumes_are_annotated_offsets_of_known_types():
    rows = [json.loads(line) for line in RESUMES.read_text().splitlines()]
    assert len(rows) >= 30 and len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        spans = r["personal"]
        assert spans == sorted(spans) and spans[0][2] in personal_types().names
        assert any(t == "PERSON" for _, _, t in spans), r["id"]  # its owner
        for (a, b, kind), after in zip(spans, [*spans[1:], None]):
            assert 0 <= a < b <= len(r["text"]) and kind in personal_types().names
            assert r["text"][a:b].strip() == r["text"][a:b]
            assert after is None or b <= after[0]
    assert (RESUMES.parent / "LICENSE").read_text().startswith("The MIT License")


def test_impossible_dates_counts_years_no_date_can_have():
    from eval.reading import impossible_dates

    keys = [
        [
            {"type": "DATE", "original": "2016 to 2017", "replacement": "9557 to 2699"},
            {"type": "DATE", "original": "Jan 2016", "replacement": "Jan 2004"},
            {"type": "PERSON", "original": "Ann", "replacement": "Eve"},
        ],
        [{"type": "DATE", "original": "Summer 2018", "replacement": "Summer 1516"}],
        [{"type": "DATE", "original": "12/20/2026", "replacement": "03/30/2027"}],  # next year
        [{"type": "DATE", "original": "0171 2345678", "replacement": "7865 8842335"}],  # no year
        [{"type": "DATE", "original": "May 2019", "replacement": "May 2031"}],
    ]
    assert impossible_dates(keys, this_year=2026) == {
        "replacements": 5,
        "impossible": 3,
        "documents": 3,
    }


def test_sentence_fluency_pairs_each_replaced_sentence_with_its_output():
    """Plumbing: a stand-in scorer (loss = words per sentence) shows which sentences are
    paired; the real SmolLM2 scorer is eval.reading.Fluency."""
    import numpy as np

    from eval.reading import sentence_fluency
    from synth.deid.spans import Span

    class Words:
        def losses(self, texts):
            return np.array([float(len(t.split())) for t in texts])

    text = "Hi HR. Anna shouted at me. Thanks."
    output = "Hi HR. Eve has acted inappropriately towards me. Thanks."
    spans = [Span(7, 11, "PERSON", "p"), Span(12, 25, "CONDUCT", "p")]
    written = [Span(7, 10, "PERSON", "p"), Span(11, 47, "CONDUCT", "p")]
    out = sentence_fluency(Words(), [text], [output], [spans], [written])
    assert out == {
        "CONDUCT": {
            "sentences": 1,
            "median_change": 2.0,
            "worst_decile_change": 2.0,
            "worst_documents": [0],
        },
        "PERSON": {
            "sentences": 1,
            "median_change": 2.0,
            "worst_decile_change": 2.0,
            "worst_documents": [0],
        },
    }


def test_a_name_replaced_inside_a_greeting_is_no_greeting_replaced():
    from eval.reading import greetings_replaced

    texts = ["Hi  Sara,\nmy pay is late.", "Dear HR Team,\nmy pay is late."]
    outputs = ["Hi  Marie,\nmy pay is late.", "Acme Corp,\nmy pay is late."]
    assert greetings_replaced(texts, outputs) == {"greetings": 2, "replaced": 1, "documents": 1}
