"""Clause grammars: deterministic per seed, thousands of distinct values per type, every
planted clause is exactly the span of its value, and a broken grammar file is one
config error naming it."""

import dataclasses
import shutil

import numpy as np
import pytest

from synth import ConfigError
from synth.generation.entities import connectives
from synth.kinds.tickets import clauses
from synth.kinds.tickets.plan import with_clauses
from synth.kinds.tickets.taxonomy import Template
from tests.synth.test_golden import LABELS, ScriptedEngine

TYPES = {
    "complaint": ("predicate", "clause", "noun_phrase"),
    "to_who": ("noun_phrase",),
    "reason_of_change": ("clause", "noun_phrase"),
    "reason": ("clause", "noun_phrase"),
    "description_life_event": ("clause",),
}
# A planted reason takes in the connective before it (docs/annotation.md, "Clauses").
CONNECTIVES = {c for form in ("phrase", "infinitive") for c in connectives()[form]}
BINDINGS = {"value": "a migraine", "name": "Anna Weber", "first_name": "Anna"}


def sampled_events() -> list[str]:
    """Every life event as the sampler writes it."""
    from synth.kinds.tickets.samplers import _life_event_phrase
    from synth.kinds.tickets.sources import life_events

    events = life_events()
    return [_life_event_phrase(e) for e in events[events.life_change_units >= 20].event]


def values(variable: str, n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    from synth.kinds.tickets.forms import load_catalogue

    events, conditions, out = sampled_events(), list(load_catalogue().lay["health_reason"]), []
    for i in range(n):
        symbol = TYPES[variable][i % len(TYPES[variable])]
        value = {"description_life_event": events, "reason": conditions}.get(variable, ["-"])
        value = value[i % len(value)]
        out.append(clauses.write(variable, symbol, rng, {**BINDINGS, "value": value}))
    return out


def test_the_same_seed_writes_the_same_values_and_another_seed_others():
    for variable in TYPES:
        assert values(variable, 50, seed=7) == values(variable, 50, seed=7)
        assert values(variable, 50, seed=7) != values(variable, 50, seed=8)


@pytest.mark.parametrize("variable", sorted(TYPES))
def test_each_type_writes_at_least_2000_distinct_values(variable):
    written = values(variable, 8000, seed=0)
    assert len(set(written)) >= 2000
    assert not any("{" in v or "[" in v or "  " in v for v in written)


def test_a_health_clause_keeps_the_sampled_condition():
    template = Template("t", "${reason}. <generate>", clauses=True)
    for seed in range(30):
        out, written = with_clauses({"reason": "the flu"}, template, np.random.default_rng(seed))
        assert written == {"reason"}
        assert any(p in out["reason"] for p in ("the flu", "a bad flu", "flu", "a nasty flu"))


def test_a_predicate_template_never_writes_a_subject_of_its_own():
    """After the template's to_who, the complaint is what the person did: no hand clause
    that names its own person, no first-person clause."""
    template = Template(
        "t",
        "${to_who} ${complaint}. <generate>",
        clauses=True,
        clause_symbols=(("complaint", "predicate"),),
    )
    for seed in range(200):
        out, _ = with_clauses(
            {"complaint": "x", "to_who": "y"}, template, np.random.default_rng(seed)
        )
        assert "|" not in out["complaint"] and not out["complaint"].startswith(("I ", "my "))
        assert out["to_who"] == "y"


def test_every_planted_clause_is_exactly_the_span_of_its_value():
    from synth.config.generate import load_config
    from synth.generation.params import params_from
    from synth.generation.render import render
    from synth.kinds import plan_documents

    cfg = load_config(
        "configs/tickets.yaml",
        {"num_docs": 240, "seed": 3, "reference_date": "2026-11-24", "labels": LABELS},
    ).updated(dp_model=None)
    docs, _ = plan_documents(cfg, "clauses")
    # as typed, a clause may hold a typo or a line break (test_slips.py): here, as written
    docs = [dataclasses.replace(d, slip_rate=0.0, run_together=0.0, line_breaks=0.0) for d in docs]
    params = params_from("default", {})
    rows = render(docs, ScriptedEngine(), params, "plain", 3)
    checked = 0
    for doc, row in zip(docs, rows):
        assert doc.index == int(row["id"].rsplit("-", 1)[1])
        for e in (e for e in row["entities"] if e["label"] in TYPES):
            span = row["text"][e["start"] : e["end"]]
            value = doc.surface[e["label"]]
            lead = span[: len(span) - len(value)].strip().lower()  # "due to", "for" or none
            assert span.endswith(value), (doc.template_id, e)
            assert lead == "" or lead in CONNECTIVES, (doc.template_id, e)
            assert span == span.strip(" ,.;:!?\n") and "{" not in span  # docs/annotation.md
            checked += "_clause_" in doc.template_id or "_pred_" in doc.template_id
    assert checked > 20


def test_an_empty_symbol_or_file_is_one_config_error_naming_it(tmp_path, monkeypatch):
    folder = tmp_path / "grammar"
    shutil.copytree(clauses.GRAMMAR_DIR, folder)
    monkeypatch.setattr(clauses, "GRAMMAR_DIR", folder)
    clauses.grammars.cache_clear()
    try:
        path = folder / "complaint.yaml"
        path.write_text(
            path.read_text().replace(
                "body: [shoulder, back, arm, hair, waist, hand, knee]", "body: []"
            )
        )
        with pytest.raises(ConfigError, match=r"complaint\.yaml: symbol 'body' is empty"):
            clauses.grammars()
        path.write_text("")
        with pytest.raises(ConfigError, match=r"complaint\.yaml is empty"):
            clauses.grammars()
    finally:
        clauses.grammars.cache_clear()
