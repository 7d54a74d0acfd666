import random

from synth.generation.entities import locate


def surface(text, spans):
    return [(s["label"], text[s["start"] : s["end"]], s["match"]) for s in spans]


def test_exact_and_heuristic_forms():
    text = (
        "I will be away from March 3rd for three days due to the flu. A raise of 7 percent. "
        "I flew from Frankfurt am Main Airport to London on 3 March 2027."
    )
    values = {
        "date_start_absence": "March 3, 2027",
        "number_of_days": "3 days",
        "reason": "the flu",
        "increase_in_percentage": "7%",
        "airport": "Frankfurt am Main Airport",
        "location": "London",
        "date_travel": "3 March 2027",
    }
    found = surface(text, locate(text, values))
    assert ("date_start_absence", "March 3rd", "heuristic") in found
    assert ("number_of_days", "three days", "heuristic") in found
    assert ("increase_in_percentage", "7 percent", "heuristic") in found
    assert ("date_travel", "3 March 2027", "exact") in found
    assert ("airport", "Frankfurt am Main Airport", "exact") in found


def test_money_and_word_boundaries():
    text = "I earn 54,300 dollars, not $154,300. Londoners are not London."
    found = surface(text, locate(text, {"salary": "$54,300", "location": "London"}))
    assert found == [("salary", "54,300 dollars", "heuristic"), ("location", "London", "exact")]


def test_spans_never_overlap_and_match_surface():
    rng = random.Random(0)
    words = ["Paris", "Paris Orly Airport", "Orly", "3 days", "three", "days", "the", "flu"]
    for _ in range(200):
        text = " ".join(rng.choice(words) for _ in range(12)) + "."
        spans = locate(
            text,
            {
                "airport": "Paris Orly Airport",
                "location": "Paris",
                "number_of_days": "3 days",
                "reason": "the flu",
            },
        )
        ends = -1
        for s in spans:
            assert s["start"] >= ends and s["end"] > s["start"]
            if s["match"] == "exact":
                assert text[s["start"] : s["end"]] == s["value"]
            ends = s["end"]


def test_planted_values_outside_every_span_are_counted():
    from synth.contract import unmarked_values

    text = "Back after 1 day. Off on 20 July 2027, back 20 July 2027. Note: 20 July 2027!"
    entities = [{"start": 25, "end": 37}, {"start": 44, "end": 56}]
    pairs = [{"key": "date_start_absence", "value": "20 July 2027"}, {"key": "d", "value": "1 day"}]
    assert text[25:37] == text[44:56] == "20 July 2027"
    assert unmarked_values(text, entities, pairs) == 2  # '1 day' and the third date
    assert unmarked_values(text, entities, {"x": "20 july 2027", "y": "day"}) == 1  # < 4: skipped


def test_a_day_count_takes_in_the_off_that_follows_it():
    from synth.generation.entities import attach_following, attached_words

    text = "I need 3 days off. Take 2 days offline. 5 days off"
    spans = [{"start": 7, "end": 13, "label": "number_of_days"}]
    spans += [{"start": 24, "end": 30, "label": "number_of_days"}]
    spans += [{"start": 40, "end": 46, "label": "number_of_days"}]
    grown = attach_following(text, spans, attached_words())
    assert [text[e["start"] : e["end"]] for e in grown] == ["3 days off", "2 days", "5 days off"]
    assert attach_following(text, [{**spans[0], "label": "duration"}], attached_words()) == [
        {**spans[0], "label": "duration"}
    ]


def test_a_month_alone_is_no_part_of_a_date_elsewhere():
    from synth.generation.entities import locate

    text = "Absent from 12 May 2027. Back on 21 May 2037 after Main Street."
    spans = locate(text, {"date_start_absence": "12 May 2027", "location": "Frankfurt am Main"})
    assert [text[e["start"] : e["end"]] for e in spans] == ["12 May 2027", "Main"]


def test_a_planted_clause_takes_in_the_connective_before_it():
    from synth.generation.entities import attach_connectives

    text = "I need two days off due to a bad flu. Can I swap shifts to drive my mum to chemo?"
    flu = text.index("a bad flu")
    drive = text.index("drive my mum")
    entities = [
        {"start": flu, "end": flu + 9, "label": "reason", "match": "exact"},
        {"start": drive, "end": drive + 21, "label": "reason_of_change", "match": "exact"},
    ]
    grown = attach_connectives(text, entities)
    assert [text[e["start"] : e["end"]] for e in grown] == [
        "due to a bad flu",
        "to drive my mum to chemo",
    ]
    assert [e["match"] for e in grown] == ["rendered", "rendered"]


def test_a_connective_is_not_taken_where_the_convention_leaves_it_out():
    from synth.generation.entities import attach_connectives

    text = "Off because my father passed away; going to my dad's. Days off for 3 days"
    cases = [
        ("my father passed away", "description_life_event"),  # `because` opens a clause
        ("my dad's", "reason_of_change"),  # `to` before a noun phrase is no infinitive
        ("3 days", "number_of_days"),  # a value, not a clause
    ]
    entities = [
        {"start": text.index(v), "end": text.index(v) + len(v), "label": lab} for v, lab in cases
    ]
    assert attach_connectives(text, entities) == entities
