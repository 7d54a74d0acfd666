"""Writer slips keep every entity span's edges and values (a property test over random
texts); typos reach inside a clause, spacing moves spans with it."""

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from synth.generation.slips import add_slips

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFG", min_size=1, max_size=12)
GLUE = st.sampled_from([" ", " ", " ", ", ", ". ", "\n", "\n\n", "! "])


@st.composite
def texts_with_spans(draw):
    """A text of random words and separators, with random words marked as spans."""
    words = draw(st.lists(WORDS, min_size=1, max_size=40))
    text, spans = "", []
    for word in words:
        start = len(text)
        text += word
        if draw(st.booleans()):
            spans.append(
                {"start": start, "end": len(text), "label": "x", "value": word, "match": "exact"}
            )
        text += draw(GLUE)
    return text, spans


@settings(max_examples=300, deadline=None)
@given(texts_with_spans(), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
def test_slips_keep_every_span_and_its_boundaries(case, rate, seed):
    text, spans = case
    new_text, new_spans = add_slips(text, spans, rate, np.random.default_rng(seed))
    assert len(new_spans) == len(spans)
    for old, new in zip(spans, new_spans):
        assert new_text[new["start"] : new["end"]] == text[old["start"] : old["end"]]
        # the characters either side are unchanged too, so word boundaries hold
        assert new_text[new["start"] - 1 : new["start"]] == text[old["start"] - 1 : old["start"]]
        assert new_text[new["end"] : new["end"] + 1] == text[old["end"] : old["end"] + 1]


def test_no_rate_no_change_and_a_full_rate_changes_free_words():
    text = "Please approve my request before Monday because everything is ready."
    span = [{"start": 33, "end": 39, "label": "date", "value": "Monday", "match": "exact"}]
    assert add_slips(text, span, 0.0, np.random.default_rng(0)) == (text, span)
    changed, spans = add_slips(text, span, 1.0, np.random.default_rng(0))
    assert changed != text
    assert changed[spans[0]["start"] : spans[0]["end"]] == "Monday"


def test_slip_rate_is_the_share_of_words_touched():
    """Over many words the share that changes is near the rate (binomial, n = 4,000
    eligible words, p = 0.05: ±0.02 is over 5 sd, a false failure far below 1e-6)."""
    text = " ".join(["standard"] * 4000)
    changed, _ = add_slips(text, [], 0.05, np.random.default_rng(1))
    # every slip changes the word it touches (or glues two words together)
    share = 1 - changed.split(" ").count("standard") / 4000
    assert abs(share - 0.05 * 1.15) < 0.02  # a missing space touches two words


def test_typos_reach_inside_a_clause_but_never_its_edges_or_a_value():
    import numpy as np

    from synth.generation.slips import add_slips

    text = "Hi, my manager keeps shouting at me during meetings. I was off 3 days. Thanks"
    spans = [
        {"start": 4, "end": 14, "label": "to_who"},
        {"start": 15, "end": 51, "label": "complaint"},
        {"start": 63, "end": 69, "label": "number_of_days"},
    ]
    spans = [{**s, "match": "exact"} for s in spans]
    inside = 0
    for seed in range(40):
        new, moved = add_slips(text, spans, 0.6, np.random.default_rng(seed))
        values = [new[s["start"] : s["end"]] for s in moved]
        assert values[0] == "my manager" and values[2] == "3 days"
        clause = values[1].split()
        assert clause[0] == "keeps" and clause[-1] == "meetings"
        typed = values[1] != "keeps shouting at me during meetings"
        inside += typed
        # the contract: an exact span is its value; a typed one is the form it was typed in
        assert [s["match"] for s in moved] == ["exact", "rendered" if typed else "exact", "exact"]
    assert inside > 10  # P(no typo inside the clause) per seed ≈ 0.16 at rate 0.6


def test_spacing_as_typed_moves_the_spans_with_it():
    import numpy as np

    from synth.generation.slips import typed_spacing

    text = "Hi, my manager keeps shouting at me. Is that ok? Thanks, Ann"
    spans = [{"start": 4, "end": 14, "label": "to_who"}, {"start": 15, "end": 35, "label": "c"}]
    for seed in range(30):
        new, moved = typed_spacing(text, spans, 0.7, 0.5, np.random.default_rng(seed))
        assert [new[s["start"] : s["end"]].split() for s in moved] == [
            ["my", "manager"],
            ["keeps", "shouting", "at", "me"],
        ]

        def words(t):
            return [w for w in re.split(r"[\s,.?]+", t) if w]

        assert words(new) == words(text)  # only spaces moved
    assert typed_spacing(text, spans, 0.0, 0.0, np.random.default_rng(0)) == (text, spans)
