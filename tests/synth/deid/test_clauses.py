"""Clause completion (synth.deid.analyzer.clauses): each convention of docs/annotation.md
("Clauses") on a parsed sentence, from a hit on a word inside the clause to the span a
person marks. The sentences are plain enough that spaCy's small parser reads them the
same on every CPU; each rule left out leaves its hit as it was."""

import pytest
from seqeval.metrics.sequence_labeling import get_entities

from synth.deid.analyzer.clauses import RULES, completed
from synth.encoder import load_tokenizer, resolve_encoder, word_tags


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer(resolve_encoder(None))


def hit_tags(words, text: str, hit: str, label: str) -> list[str]:
    """BIO tags marking the words of `hit` (its first occurrence) as `label`."""
    start = text.index(hit)
    tags, inside = [], False
    for a, b in words:
        if a >= start and b <= start + len(hit):
            tags.append(("I-" if inside else "B-") + label)
            inside = True
        else:
            tags.append("O")
            inside = False
    return tags


def _marked(tokenizer, text: str, hit: str, label: str, rules=RULES) -> list[tuple[str, str]]:
    words, _ = word_tags(tokenizer, text, [])
    out = completed(text, words, hit_tags(words, text, hit, label), rules)
    return [(lab, text[words[f][0] : words[t][1]]) for lab, f, t in get_entities(out)]


CONVENTIONS = [
    # a complaint: from the verb group to the end of the clause, the person outside
    (
        "My supervisor keeps making jokes about my age in front of the team.",
        "my age",
        "complaint",
        "keeps making jokes about my age in front of the team",
    ),
    # ... the pronoun that takes the person up stays outside
    (
        "He is always rude to me when the manager is not there.",
        "rude",
        "complaint",
        "is always rude to me when the manager is not there",
    ),
    # ... a complaint that names no one is the writer's clause
    (
        "I keep getting left off the rota emails.",
        "rota",
        "complaint",
        "I keep getting left off the rota emails",
    ),
    # a clause never takes in the greeting line or the greeting before it
    (
        "Dear HR,\nI have a court hearing I cannot move on Friday.",
        "court hearing",
        "reason_of_change",
        "I have a court hearing I cannot move on Friday",
    ),
    (
        "Hi HR - our house was flooded last night so I cannot come in.",
        "flooded",
        "description_life_event",
        "our house was flooded last night",
    ),
    # a hit that opens with its connective is the connective phrase already
    (
        "Good morning, due to a religious holiday I observe I would like to swap my shift.",
        "due to a religious holiday",
        "reason_of_change",
        "due to a religious holiday",
    ),
    # a shift change's reason: the writer's clause, from "I", governing verb included
    (
        "Hi, can I swap my Friday shift? I need to drive my mother to her chemo sessions.",
        "my mother",
        "reason_of_change",
        "I need to drive my mother to her chemo sessions",
    ),
    # ... without the `because` that opens it
    (
        "I would like to change my shift because I have to pick up my kids from school.",
        "my kids",
        "reason_of_change",
        "I have to pick up my kids from school",
    ),
    # ... an infinitive with its `to`
    (
        "Can I move to the early shift to take care of my dad?",
        "my dad",
        "reason_of_change",
        "to take care of my dad",
    ),
    # a health reason: the condition, with the phrase connective before it
    (
        "I can't come in this week due to my back pain, sorry.",
        "back pain",
        "reason",
        "due to my back pain",
    ),
    # a life event: its clause, the date inside it
    (
        "I need three days off because my grandmother passed away on Sunday.",
        "grandmother",
        "description_life_event",
        "my grandmother passed away on Sunday",
    ),
    # a person: the noun phrase with their team
    (
        "A colleague from accounting keeps taking credit for my work.",
        "colleague",
        "to_who",
        "A colleague from accounting",
    ),
    # ... with a name in apposition
    (
        "Our shift manager, Tony, doesn't let me take my breaks.",
        "shift manager",
        "to_who",
        "Our shift manager, Tony",
    ),
]


@pytest.mark.parametrize(("text", "hit", "label", "expected"), CONVENTIONS)
def test_a_hit_inside_a_clause_becomes_the_span_a_person_marks(
    tokenizer, text, hit, label, expected
):
    assert _marked(tokenizer, text, hit, label) == [(label, expected)]


@pytest.mark.parametrize(("text", "hit", "label", "expected"), CONVENTIONS)
def test_without_its_rule_the_hit_stays_as_found(tokenizer, text, hit, label, expected):
    rule = {"complaint": "complaints", "to_who": "people"}.get(label, "reasons")
    kept = _marked(tokenizer, text, hit, label, [r for r in RULES if r != rule])
    assert kept[0][1] in (hit, "due to " + hit)  # only the connective may still join


def test_a_completed_clause_stops_at_another_span(tokenizer):
    text = "My team lead keeps shouting at me in meetings."
    words, _ = word_tags(tokenizer, text, [])
    tags = ["O"] * len(words)
    first = next(i for i, (a, _) in enumerate(words) if text[a:].startswith("My"))
    tags[first], tags[first + 1], tags[first + 2] = "B-to_who", "I-to_who", "I-to_who"
    at = next(i for i, (a, _) in enumerate(words) if text[a:].startswith("meetings"))
    tags[at] = "B-complaint"
    out = completed(text, words, tags)
    spans = [(lab, text[words[f][0] : words[t][1]]) for lab, f, t in get_entities(out)]
    assert spans == [("to_who", "My team lead"), ("complaint", "keeps shouting at me in meetings")]


def test_a_value_span_is_never_completed(tokenizer):
    text = "I will be away for two weeks because my grandmother passed away."
    assert _marked(tokenizer, text, "two weeks", "number_of_days") == [
        ("number_of_days", "two weeks")
    ]


@pytest.mark.parametrize("method", ["surrogate", "tag"])
def test_a_partial_hit_replaces_the_whole_clause(tokenizer, method):
    """The detector found "my age" inside the complaint: what is shared holds none of the
    clause (the privacy score's test), by surrogate or by tag."""
    from synth.deid.analyzer.hygiene import detector_tags
    from synth.deid.anonymizer.operators import replace_spans
    from synth.deid.anonymizer.surrogates import Surrogates
    from synth.deid.privacy import privacy_score
    from synth.deid.spans import spans_from_word_tags
    from synth.deid.types import personal_types

    text = "Hello HR, my supervisor keeps making jokes about my age in front of the team."
    clause = "keeps making jokes about my age in front of the team"
    words, _ = word_tags(tokenizer, text, [])
    raw = ["O"] * len(words)
    at = next(i for i, (a, _) in enumerate(words) if text[a:].startswith("my age"))
    raw[at], raw[at + 1] = "B-complaint", "I-complaint"
    spans = spans_from_word_tags(
        words, detector_tags(text, words, raw), personal_types().by_variable, "ner"
    )
    assert [(text[s.start : s.end], s.type) for s in spans] == [(clause, "CONDUCT")]
    shared = replace_spans(
        text, spans, method, Surrogates(0, "d") if method == "surrogate" else None
    )
    assert privacy_score([clause], shared.text) == 1.0
    assert not {"jokes", "age", "team"} & set(shared.text.lower().replace(".", " ").split())
    assert shared.text.startswith("Hello HR, my supervisor ")


@pytest.mark.parametrize("label", ["complaint", "reason", "reason_of_change", "to_who"])
def test_a_hit_in_a_sentence_without_a_verb_ends(tokenizer, label):
    """A fragment ("Awful week, honestly.") has a root that is no verb: the climb stops
    there (it looped forever when it compared spaCy tokens by identity)."""
    import signal

    def too_long(*_):
        raise TimeoutError("clause completion did not end")

    signal.signal(signal.SIGALRM, too_long)
    signal.alarm(30)
    try:
        text = "Awful week at the depot, honestly. Thanks"
        spans = _marked(tokenizer, text, "depot", label)
    finally:
        signal.alarm(0)
    assert len(spans) == 1 and "depot" in spans[0][1]
