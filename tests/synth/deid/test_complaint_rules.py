"""Issue 62's rules on the complaint ticket as people write it: a clause broken by a line
break is one clause, replaced once; a person named by their role is the person, replaced
with a role of the same shape, beside a name replaced too; a CV's achievement sentence is
no complaint; no neutral phrase is written twice in a document."""

import pytest
from seqeval.metrics.sequence_labeling import get_entities

from synth.deid.analyzer.analyze import merged
from synth.deid.analyzer.clauses import completed
from synth.deid.analyzer.detectors import without_clauses
from synth.deid.analyzer.hygiene import detector_tags
from synth.deid.analyzer.kinds import cv_shaped, held_clause_labels
from synth.deid.anonymizer.operators import replace_spans
from synth.deid.anonymizer.surrogates import Surrogates, neutral_phrases
from synth.deid.lexicon.work_roles import role_phrases
from synth.deid.spans import Span, joined_clauses
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
    assert held_clause_labels(CV, {COMPLAINT: 1.0}) == frozenset()  # even a sure complaint
    assert held_clause_labels(CV, {COMPLAINT: 1.0}, gate="all") is None  # unless asked for
    words, _ = word_tags(tokenizer, CV, [])
    raw = _hit(words, CV, "cut churn by", "complaint")
    assert all(t == "O" for t in without_clauses(raw))


def test_clause_types_only_of_the_kinds_the_classifier_finds_plausible():
    ticket = "Hi, my supervisor keeps shouting at me. Can HR help?"
    assert not cv_shaped(ticket)
    accommodation = "Ask information_Accommodation"
    # unsure between a complaint and an accommodation request: a complaint may be there
    unsure = held_clause_labels(ticket, {COMPLAINT: 0.4, accommodation: 0.6})
    assert "complaint" in unsure and "reason_of_change" not in unsure
    # sure it is an accommodation request: no complaint, no clause at all
    sure = held_clause_labels(ticket, {COMPLAINT: 0.01, accommodation: 0.99})
    assert not sure & {"complaint", "reason", "reason_of_change", "description_life_event"}
    assert held_clause_labels(ticket, None) is None  # a detector without a classifier: as before
    tags = ["B-complaint", "I-complaint", "B-reason_of_change", "B-date"]
    assert without_clauses(tags, frozenset({"complaint", "to_who"})) == tags[:2] + ["O", "B-date"]


class _KindsByWord:
    """A kind classifier that reads a text as another kind when it holds `word`."""

    kinds = ("complaint", "other")

    def __init__(self, word: str):
        self.word = word

    def probabilities(self, texts):
        import numpy as np

        return np.array([[0.0, 1.0] if self.word in t else [1.0, 0.0] for t in texts])


def test_surrogates_are_redrawn_until_the_ticket_keeps_its_kind():
    from synth.deid.anonymizer.operators import surrogated

    text = "My manager keeps shouting at me."
    span = [Span(text.index("keeps"), len(text) - 1, "CONDUCT", "ner")]
    first = surrogated(["d"], [text], [span], seed=0)[0].text
    phrase = first[len("My manager ") : -1]
    kinds = _KindsByWord(phrase)  # the first draw reads as another kind
    kept = surrogated(["d"], [text], [span], seed=0, kinds=kinds)[0].text
    assert phrase not in kept and kept.startswith("My manager "), kept
    assert kept == surrogated(["d"], [text], [span], seed=0, kinds=kinds)[0].text  # seeded
    # a kind no draw keeps: the first draw, as without a classifier
    assert surrogated(["d"], [text], [span], seed=0, kinds=_KindsByWord("My"))[0].text == first
