from pathlib import Path

import pytest

from eval.markup import jsonl, mark, parse, parse_ticket
from eval.testset import load_testset
from synth import ConfigError
from synth.kinds.tickets import evaluation_labels

DEV_PEOPLE = Path(__file__).parents[2] / "eval" / "data" / "dev_people.txt"


def test_spans_are_cut_where_the_markup_puts_them():
    record = parse_ticket("L", "hi [my boss]{to_who} is [rude to me]{complaint}.\n[Ann]{PERSON}")
    assert record["text"] == "hi my boss is rude to me.\nAnn"
    assert record["entities"] == [[3, 10, "to_who"], [14, 24, "complaint"]]
    assert record["personal"] == [[26, 29, "PERSON"]]


def test_an_unclosed_span_is_refused():
    with pytest.raises(ConfigError, match="not closed"):
        parse_ticket("L", "hi [my boss]{to who} left")


def test_the_committed_jsonl_is_the_markup_and_a_valid_test_set():
    records = parse(DEV_PEOPLE)
    assert DEV_PEOPLE.with_suffix(".jsonl").read_text(encoding="utf-8") == jsonl(records)
    labels, entity_labels = evaluation_labels()
    docs = load_testset(str(DEV_PEOPLE.with_suffix(".jsonl")), labels, set(entity_labels)).docs
    assert len(docs) == 80 and all(sum(d.label == lab for d in docs) == 10 for lab in labels)


def test_marking_a_record_gives_back_its_markup():
    for record in parse(DEV_PEOPLE):
        spans = [tuple(s) for s in record["entities"] + record["personal"]]
        again = parse_ticket(record["label"], mark(record["text"], spans))
        assert again == record
