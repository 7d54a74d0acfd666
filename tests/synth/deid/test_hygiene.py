"""Span hygiene on the shipped encoder's words: values snap to whole tokens, brackets
and closing punctuation stay out, function-word spans are dropped, cities in a flight
ticket are places (docs/annotation.md)."""

import pytest

from synth.deid.analyzer.hygiene import detector_tags, tidy_tags
from synth.deid.analyzer.roles import places_named
from synth.encoder import load_tokenizer, resolve_encoder


@pytest.fixture(scope="module")
def words_of():
    tokenizer = load_tokenizer(resolve_encoder("minilm"))
    return lambda text: [
        (s, e) for _, (s, e) in tokenizer.backend_tokenizer.pre_tokenizer.pre_tokenize_str(text)
    ]


def tagged(text, words, marks: dict[str, str]) -> list[str]:
    """Tags with B-TYPE on each word whose text is a key of `marks` (first occurrence)."""
    tags, left = ["O"] * len(words), dict(marks)
    for i, (s, e) in enumerate(words):
        if text[s:e] in left:
            tags[i] = "B-" + left.pop(text[s:e])
    return tags


def spans(text, words, tags) -> list[tuple[str, str]]:
    out = []
    for (s, e), tag in zip(words, tags):
        if tag.startswith("B-"):
            out.append([tag[2:], s, e])
        elif tag.startswith("I-"):
            out[-1][2] = e
    return [(t, text[s:e]) for t, s, e in out]


@pytest.mark.parametrize(
    "text, marks, expected",
    [
        (
            "I asked for an 8% raise.",
            {"8": "increase_in_percentage"},
            [("increase_in_percentage", "8%")],
        ),
        ("Off from (29/9) on.", {"29": "date"}, [("date", "29/9")]),
        ("It was $78,000.", {"78": "salary"}, [("salary", "$78,000")]),
        ("back on 2.10, thanks", {"10": "date"}, [("date", "2.10")]),
        (
            "off 14.3-16.3 please",
            {"14": "date_start_absence", "16": "date_end_absence"},
            [("date_start_absence", "14.3"), ("date_end_absence", "16.3")],
        ),
    ],
)
def test_a_value_covers_its_whole_token_without_brackets_or_closing_punctuation(
    words_of, text, marks, expected
):
    words = words_of(text)
    assert spans(text, words, tidy_tags(text, words, tagged(text, words, marks))) == expected


def test_spans_of_function_words_or_punctuation_are_dropped(words_of):
    text = "I want to complain: my manager shouts"
    words = words_of(text)
    tags = tagged(
        text, words, {"to": "complaint", ":": "complaint", "manager": "to_who", "my": "to_who"}
    )
    tags[words.index(next(w for w in words if text[slice(*w)] == "manager"))] = "I-to_who"
    assert spans(text, words, tidy_tags(text, words, tags)) == [("to_who", "my manager")]


def test_a_job_title_starts_after_its_article_and_a_span_after_its_bracket(words_of):
    text = "I work as a registered nurse (in Lyon)"
    words = words_of(text)
    tags = tagged(text, words, {"a": "work_title", "(": "location"})
    tags[words.index(next(w for w in words if text[slice(*w)] == "registered"))] = "I-work_title"
    tags[words.index(next(w for w in words if text[slice(*w)] == "nurse"))] = "I-work_title"
    tags[words.index(next(w for w in words if text[slice(*w)] == "in"))] = "I-location"
    tags[words.index(next(w for w in words if text[slice(*w)] == "Lyon"))] = "I-location"
    assert spans(text, words, tidy_tags(text, words, tags)) == [
        ("work_title", "registered nurse"),
        ("location", "in Lyon"),
    ]


def test_each_rule_can_be_left_out(words_of):
    text = "an 8% raise"
    words = words_of(text)
    tags = tagged(text, words, {"8": "increase_in_percentage"})
    assert spans(text, words, tidy_tags(text, words, tags, rules=())) == [
        ("increase_in_percentage", "8")
    ]


@pytest.mark.parametrize(
    "place, expected",
    [
        ("Frankfurt", "location"),
        ("the Frankfurt airport", "airport"),
        ("FRA", "airport"),
        ("Heathrow", "airport"),
        ("Schönefeld", "airport"),  # not a city we know: the model's word stands
    ],
)
def test_a_city_in_a_flight_ticket_is_a_place_unless_an_airport_is_named(words_of, place, expected):
    text = f"I flew from {place} on 3 May."
    words = words_of(text)
    first = next(i for i, w in enumerate(words) if w[0] == text.index(place))
    tags = ["O"] * len(words)
    tags[first] = "B-airport"
    for i, w in enumerate(words):
        if first < i and w[1] <= text.index(place) + len(place):
            tags[i] = "I-airport"
    assert spans(text, words, places_named(text, words, tags)) == [(expected, place)]


def test_the_detector_output_composes_roles_places_and_hygiene(words_of):
    text = "Flight to Lyon (LYS) on 29/9."
    words = words_of(text)
    tags = tagged(text, words, {"Lyon": "airport", "LYS": "airport", "29": "date_travel"})
    assert spans(text, words, detector_tags(text, words, tags)) == [
        ("location", "Lyon"),
        ("airport", "LYS"),
        ("date_travel", "29/9"),
    ]


def test_one_token_is_one_value_of_one_type_unless_a_dash_joins_two(words_of):
    text = "my salary is €52,000 now"
    words = words_of(text)
    tags = tagged(text, words, {"€52": "wage_gap", ",": "salary"})
    tags[[text[s:e] for s, e in words].index("000")] = "I-salary"
    assert spans(text, words, tidy_tags(text, words, tags)) == [("salary", "€52,000")]


@pytest.mark.parametrize(
    "text, marks, expected",
    [
        (
            "I flew from Brussels Airport on Monday",
            {"Brussels": "location", "Airport": "airport"},
            [("airport", "Brussels Airport")],
        ),
        (
            "out of Adolfo Suárez Madrid–Barajas Airport.",
            {"Airport": "airport"},
            [("airport", "Adolfo Suárez Madrid–Barajas Airport")],
        ),
        ("I landed at Heathrow late", {"Heathrow": "location"}, [("airport", "Heathrow")]),
        ("I landed in Lyon late", {"Lyon": "location"}, [("location", "Lyon")]),
    ],
)
def test_an_airport_is_named_whole_and_a_named_airport_is_no_place(words_of, text, marks, expected):
    words = words_of(text)
    assert spans(text, words, places_named(text, words, tagged(text, words, marks))) == expected


def test_a_date_takes_its_article_and_a_count_its_hedge(words_of):
    text = "off from the 21st for about six weeks"
    words = words_of(text)
    tags = tagged(text, words, {"21st": "date_start_absence", "six": "number_of_days"})
    tags[[text[s:e] for s, e in words].index("weeks")] = "I-number_of_days"
    assert spans(text, words, tidy_tags(text, words, tags)) == [
        ("date_start_absence", "the 21st"),
        ("number_of_days", "about six weeks"),
    ]


def test_pieces_of_one_clause_in_one_sentence_are_one_clause(words_of):
    text = "my partner and I are separating. and I move out"
    words = words_of(text)
    tags = tagged(
        text,
        words,
        {
            "partner": "description_life_event",
            "are": "description_life_event",
            "move": "description_life_event",
        },
    )
    at = [text[s:e] for s, e in words]
    tags[at.index("and")] = "I-description_life_event"
    tags[at.index("separating")] = "I-description_life_event"
    assert spans(text, words, tidy_tags(text, words, tags)) == [
        ("description_life_event", "partner and I are separating"),
        ("description_life_event", "move"),
    ]
    assert len(spans(text, words, tidy_tags(text, words, tags, rules=("snap",)))) == 3


@pytest.mark.parametrize(
    "text, marks, expected",
    [
        ("from $68,000 to more", {"$": "increase_in_percentage"}, [("salary", "$68,000")]),
        (
            "from 41.500 euros to more",
            {"41": "wage_gap", "euros": "salary"},
            [("salary", "41.500 euros")],
        ),
        ("from 38 000 € to more", {"38": "wage_gap"}, [("salary", "38 000 €")]),
        ("a 9 % raise", {"9": "salary"}, [("increase_in_percentage", "9 %")]),
        (
            "a 12 per cent raise",
            {"12": "increase_in_percentage"},
            [("increase_in_percentage", "12 per cent")],
        ),
    ],
)
def test_an_amount_is_typed_by_its_unit_and_takes_the_unit_after_it(
    words_of, text, marks, expected
):
    words = words_of(text)
    tags = tagged(text, words, marks)
    at = [text[s:e] for s, e in words]
    if "000" in at and text.startswith("from 38"):
        tags[at.index("000")] = "I-wage_gap"
    assert spans(text, words, tidy_tags(text, words, tags)) == expected
