"""Issue 62's rules on the complaint ticket as people write it: a clause broken by a line
break is one clause, replaced once; a person named by their role is the person, replaced
with a role of the same shape, beside a name replaced too; a CV's achievement sentence is
no complaint; no neutral phrase is written twice in a document."""

import pytest
from seqeval.metrics.sequence_labeling import get_entities

from synth.deid.clauses import completed
from synth.deid.detectors import without_clauses
from synth.deid.hygiene import detector_tags
from synth.deid.kinds import cv_shaped, holds_clauses
from synth.deid.methods import merged, replace_spans
from synth.deid.people import role_phrases
from synth.deid.spans import Span, joined_clauses
from synth.deid.surrogates import Surrogates, neutral_phrases
from synth.encoder import load_tokenizer, resolve_encoder, word_tags
from tests.synth.deid.test_clauses import hit_tags as _hit

COMPLAINT = "Complaint_Complaint"


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer(resolve_encoder(None))


def _completed(tokenizer, text: str, hit: str) -> list[str]:
    words, _ = word_tags(tokenizer, text, [])
    out = completed(text, words, _hit(words, text, hit, "complaint"))
    return [text[words[f][0] : words[t][1]] for _, f, t in get_entities(out)]


def test_a_clause_broken_by_a_line_break_is_completed_across_it(tokenizer):
    text = "Hi HR,\nmy colleague keeps taking my parcels\noff the shelf and hiding them.\nThanks"
    assert _completed(tokenizer, text, "parcels") == [
        "keeps taking my parcels\noff the shelf and hiding them"
    ]


def test_a_new_sentence_on_the_next_line_is_not_taken_in(tokenizer):
    text = "My boss keeps shouting at me.\nI work nights since March."
    assert _completed(tokenizer, text, "shouting") == ["keeps shouting at me"]


def test_two_pieces_of_one_clause_are_replaced_once():
    text = "My manager keeps taking my parcels\noff the shelf. Regards"
    a, b = text.index("keeps"), text.index("parcels") + len("parcels")
    c, d = text.index("off"), text.index("shelf") + len("shelf")
    pieces = [Span(a, b, "CONDUCT", "ner"), Span(c, d, "CONDUCT", "ner")]
    assert joined_clauses(text, pieces) == [Span(a, d, "CONDUCT", "ner")]
    # a sentence end between them keeps them apart
    two = "He keeps shouting. He hides my mail"
    apart = [Span(3, 17, "CONDUCT", "ner"), Span(22, 35, "CONDUCT", "ner")]
    assert joined_clauses(two, apart) == apart
    out = replace_spans(text, joined_clauses(text, pieces), "surrogate", Surrogates(0, "d")).text
    phrases = neutral_phrases()["CONDUCT"]["after_person"]
    assert sum(out.count(p) for p in phrases) == 1, out
    assert "parcels" not in out and "shelf" not in out, out


def test_no_neutral_phrase_is_written_twice_in_a_document():
    surrogates = Surrogates(0, "d")
    written = [surrogates.replace("CONDUCT", f"he did thing number {i}") for i in range(4)]
    assert len(set(written)) == 4, written


@pytest.mark.parametrize(
    "text, phrases",
    [
        (
            "My direct manager and one of our senior colleagues keep mocking me.",
            ["My direct manager", "one of our senior colleagues"],
        ),
        ("I reported it to the team leader, Tom.", ["the team leader"]),
        ("Managers and supervisors must sign it.", []),  # no determiner: a rule, no one
        ("We need a new manual for the office.", []),
    ],
)
def test_role_phrases_from_the_lexicon(text, phrases):
    assert [text[a:b] for a, b in role_phrases(text)] == phrases


def test_a_role_phrase_and_a_name_in_one_sentence_are_both_replaced(tokenizer):
    text = "My manager Tom Becker keeps shouting at me in meetings."
    words, _ = word_tags(tokenizer, text, [])
    raw = _hit(words, text, "shouting", "complaint")
    tags = detector_tags(text, words, raw, kind=COMPLAINT)
    entities = {(lab, text[words[f][0] : words[t][1]]) for lab, f, t in get_entities(tags)}
    assert ("to_who", "My manager") in entities, entities
    name = text.index("Tom Becker")
    found = [
        Span(0, len("My manager"), "PERSON", "ner"),
        Span(name, name + len("Tom Becker"), "PERSON", "presidio"),
    ]
    spans = merged([text], [found])[0]
    result = replace_spans(text, spans, "surrogate", Surrogates(0, "d"))
    assert "My manager" not in result.text and "Tom" not in result.text, result.text
    # the same shape: the possessive, another role of the group, then the other name
    assert result.text.startswith("My ") and result.text.endswith(
        " keeps shouting at me in meetings."
    )
    # the same role is the same surrogate throughout the document, case as written
    surrogates = Surrogates(0, "d")
    first = surrogates.replace("PERSON", "my manager")
    assert surrogates.replace("PERSON", "the manager") == "the " + first.split(" ", 1)[1]
    assert surrogates.replace("PERSON", "My manager") == "My " + first.split(" ", 1)[1]


def test_role_phrases_are_marked_only_where_the_kind_holds_a_person(tokenizer):
    text = "My manager approved my leave from 3 March."
    words, _ = word_tags(tokenizer, text, [])
    tags = detector_tags(text, words, ["O"] * len(words), kind="Life event_Health issues")
    assert all(t == "O" for t in tags), tags


CV = (
    "Ana Lima\nExperience: Sales lead at Acme, 2019-2023. Grew the regional team from 4 to "
    "12 people and cut churn by 30%.\nEducation: BA Economics, 2018.\nSkills: CRM, SQL"
)


def test_a_cv_achievement_sentence_is_left_alone(tokenizer):
    assert cv_shaped(CV)
    assert not holds_clauses(CV, COMPLAINT, classifier=True)  # even where a kind is read
    assert holds_clauses(CV, COMPLAINT, classifier=True, gate="all")  # unless asked for
    words, _ = word_tags(tokenizer, CV, [])
    raw = _hit(words, CV, "cut churn by", "complaint")
    assert all(t == "O" for t in without_clauses(raw))


def test_a_ticket_the_classifier_cannot_place_gets_no_clause_types():
    ticket = "Hi, my supervisor keeps shouting at me. Can HR help?"
    assert not cv_shaped(ticket)
    assert holds_clauses(ticket, COMPLAINT, classifier=True)
    assert not holds_clauses(ticket, None, classifier=True)  # not sure of its kind
    assert holds_clauses(ticket, None, classifier=False)  # an old detector: as before
