"""The `subject` rule (synth/deid/analyzer/rules/subject.py): its own `apply`, on spans as a
detector gives them, and what it makes of a document de-identified."""

import re

from synth.deid.analyzer.rules import subject as rule
from synth.deid.spans import Span
from tests.synth.deid.rules.through_rules import shared, span_of


def test_a_conduct_clause_gives_its_subject_to_a_person_span():
    found = rule.apply("My manager Tom shouted at me.", [Span(0, 28, "CONDUCT", "p")])
    assert found == [Span(15, 28, "CONDUCT", "p"), Span(0, 14, "PERSON", "p")]
    thing = rule.apply("The storage room was left open by someone.", [Span(0, 41, "CONDUCT", "p")])
    assert thing == [Span(17, 41, "CONDUCT", "p")]  # a thing stays as written


def test_a_conduct_clause_keeps_its_subject_and_gets_a_predicate_of_its_shape():
    from synth.deid.anonymizer.surrogates import neutral_phrases

    past = neutral_phrases()["CONDUCT"]["past"]
    text = "Last week my supervisor shouted at me in front of the whole team."
    clause = span_of(text, "my supervisor shouted at me in front of the whole team", "CONDUCT")
    out, _ = shared(text, [clause])
    subject = re.match(r"Last week (my \w+(?: \w+)?) ", out)
    assert subject and subject[1] != "my supervisor", out  # a role of its group
    assert any(out[subject.end() :].startswith(p) for p in past), out
    pronoun = "Last week he shouted at me in front of the whole team."
    out, _ = shared(
        pronoun, [span_of(pronoun, "he shouted at me in front of the whole team", "CONDUCT")]
    )
    assert out.startswith("Last week he ") and any(out[13:].startswith(p) for p in past), out


def test_a_complaint_about_a_thing_names_no_one_and_reads():
    """The thing is no person (no PERSON span), and a person's predicate after it would
    not read ("The storage room has acted inappropriately towards me"): the `readable`
    rule makes the sentence one span, written as a neutral sentence (issue 93)."""
    from synth.deid.anonymizer.surrogates import neutral_phrases

    text = "Hi HR,\nThe storage room is used as a smoking area by the warehouse crew.\nAnna"
    clause = span_of(
        text, "The storage room is used as a smoking area by the warehouse crew", "CONDUCT"
    )
    out, key = shared(text, [clause])
    assert [k["type"] for k in key] == ["CONDUCT"], key
    sentences = [f"Hi HR,\n{c}.\nAnna" for c in neutral_phrases()["CONDUCT"]["clause"]]
    assert out in sentences, out


def test_a_role_read_as_conduct_is_the_person():
    """Issue 83: "my team lead" typed CONDUCT became "complain about has been treating me"."""
    text = "I want to complain about my team lead. He has been treating me unfairly."
    out, key = shared(text, [span_of(text, "my team lead", "CONDUCT")])
    assert [k["type"] for k in key] == ["PERSON"], key
    assert out.startswith("I want to complain about ") and out.endswith(
        ". He has been treating me unfairly."
    ), out
