"""Planning tickets with traits: omission, register, forms, free-form flags, config errors.

Plumbing uses a scripted fake model; the real one runs in tests/docs and the benchmark."""

import dataclasses
from collections import Counter

import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.contract import NO_VARIABLES
from synth.generation.entities import attached_words, connectives
from synth.generation.params import params_from
from synth.generation.render import render
from synth.generation.template import fill, variables_in
from synth.io.shards import open_output, write_manifest, write_shard
from synth.kinds import check_row, plan_documents
from synth.kinds.tickets.taxonomy import load_taxonomy
from tests.scripted import ScriptedChat

MIXED = "configs/tickets_mixed.yaml"


class ScriptedGenerator(ScriptedChat):
    """Answers every prompt with `reply(prompt)`."""

    def __init__(self, reply):
        self.reply, self.prompts = reply, []

    def continue_prompts(self, prompts, params, seed):
        self.prompts += prompts
        return [self.reply(p) for p in prompts], [4] * len(prompts), [9] * len(prompts)


CONNECTIVES = {c for form in ("phrase", "infinitive") for c in connectives()[form]}


def plan(config=MIXED, n=240, **overrides):
    cfg = load_config(
        config, {"num_docs": n, "reference_date": "2026-11-24", "labels": LABELS, **overrides}
    )
    # Overrides skip None, so the config's DP model is dropped here: these tests must not
    # depend on a model file that only `make demo` writes.
    return plan_documents(cfg.updated(dp_model=None), "run")


# Health tickets need the DP model; tests/docs covers them with the real one.
LABELS = [label for label in load_taxonomy() if label != "Life event_Health issues"]


def test_left_out_variables_are_absent_and_the_label_variable_never_is():
    docs, notes = plan()
    taxonomy = load_taxonomy()
    left_out_seen = 0
    for doc in docs:
        sub = taxonomy[doc.label]
        assert sub.label_variable in doc.entities
        fixed = " ".join(doc.pieces) + doc.instruction
        for name in set(sub.variables) - set(doc.entities):
            left_out_seen += 1
            assert doc.attributes[name] not in fixed
        assert set(doc.surface) == set(doc.entities)
    assert left_out_seen and sum(notes["writing"]["variables_left_out"].values()) == left_out_seen


def test_omission_rates_follow_the_taxonomy():
    """Accommodation leaves duration out at 0.3; templates that lack it add a little more.
    120 tickets: the share lies in [0.15, 0.6] except with probability below 1e-4."""
    docs, _ = plan(n=120, labels=["Ask information_Accommodation"])
    share = sum("duration" not in j.entities for j in docs) / len(docs)
    assert 0.15 <= share <= 0.6


def test_classic_settings_reproduce_the_first_release():
    docs, notes = plan("configs/tickets_classic.yaml", n=64)
    taxonomy = load_taxonomy()
    for doc in docs:
        sub = taxonomy[doc.label]
        template = next(t for t in sub.templates if t.id == doc.template_id)
        assert template.classic and doc.style == "plain" and doc.header
        values = {**doc.persona, **doc.attributes}
        whole = f"{template.greeting}\n\n{template.body}\n\n{template.sign_off}"
        assert "<generate>".join(doc.pieces) == fill(whole, values)
        written = variables_in(template.body) & set(sub.context_variables)
        assert set(doc.entities) == set(sub.variables) | written  # every planted value
        assert doc.surface == doc.entities
    assert notes["writing"]["forms_per_kind"].keys() <= {"as_sampled", *load_kinds()}
    assert all(
        set(forms) == {"canonical"}
        or set(forms) <= {"long", "digits", "symbol", "sign", "listed", "city", "name"}
        for forms in notes["writing"]["forms_per_kind"].values()
    )


def load_kinds():
    from synth.kinds.tickets.forms import load_catalogue

    return load_catalogue().forms


def test_rendered_spans_hold_the_written_form():
    docs, _ = plan(n=64, prompt_style="plain")
    # as written, not as typed: a typo may fall inside a clause (test_slips.py)
    docs = [dataclasses.replace(d, slip_rate=0.0, run_together=0.0, line_breaks=0.0) for d in docs]
    rows = render(docs, ScriptedGenerator(lambda p: " All good."), params_from(), "plain", 0)
    rendered = 0
    for doc, row in zip(docs, rows):
        assert not check_row(row), check_row(row)
        assert {e["label"] for e in row["entities"]} <= set(doc.entities)
        for e in row["entities"]:
            if e["match"] == "rendered":
                rendered += 1
                written = row["text"][e["start"] : e["end"]]
                tails = ("", *attached_words().get(e["label"], ()))  # "a day" + " off"
                forms = {doc.surface[e["label"]] + tail for tail in tails}
                lead = next((written[: -len(f)] for f in forms if written.endswith(f)), None)
                assert lead is not None, (written, forms)
                # a clause takes in its connective: "[due to a bad flu]" (docs/annotation.md)
                assert lead.strip().lower() in {"", *CONNECTIVES}, written
                assert e["value"] == doc.entities[e["label"]]
    assert rendered > 10


def test_free_tickets_without_their_variables_are_flagged_and_counted(tmp_path):
    docs, _ = plan(n=8, prompt_style="free")
    fake = ScriptedGenerator(lambda p: "I would like to talk to someone about this soon.")
    rows = render(docs, fake, params_from("default", {"max_retries": 1}), "plain", 0)
    assert all(r["error"] == NO_VARIABLES and r["template_id"] == "free" for r in rows)
    assert all("Write a short email to HR" in p for p in fake.prompts)
    run = open_output(tmp_path, {"seed": 0}, "f" * 64)
    write_shard(tmp_path, 0, rows)
    manifest = write_manifest(tmp_path, run, {}, {})
    assert manifest["rows_flagged_no_variables"] == 8


def test_free_tickets_holding_a_value_are_kept():
    docs, _ = plan(n=8, prompt_style="free")

    def first_fact(prompt):  # the card lists 'name: value; name: value. Tone: …'
        facts = prompt.split("written as here: ")[1].split(". Tone:")[0]
        return facts.split("; ")[0].split(": ", 1)[1]

    fake = ScriptedGenerator(lambda p: f"It is about {first_fact(p)}, as I said.")
    rows = render(docs, fake, params_from(), "plain", 0)
    assert all(r["error"] is None and r["entities"] for r in rows)


@pytest.mark.parametrize(
    "overrides,message",
    [
        ({"prompt_style": {"plain": 1, "poem": 1}}, "prompt_style 'poem' unknown"),
        ({"prompt_style": {"plain": -1}}, "weight of 'plain' must be a number"),
        (
            {"value_forms": "some"},
            "value_forms must be 'canonical', 'all', 'half_a', 'half_b', got",
        ),
        ({"traits": {"greting": 0.5}}, "tickets.traits.greting must be a known setting, got 0.5"),
        ({"traits": {"greeting": 1.5}}, "tickets.traits.greeting must be <= 1, got 1.5"),
        (
            {"traits": {"register": {"rude": 1}}},
            "traits.register must be 'formal' or 'informal', got 'rude'",
        ),
        ({"traits": {"length": {"mean": 40}}}, "tickets.traits.length needs sd, got"),
        (
            {"traits": {"omission": "yes"}},
            "tickets.traits.omission must be a valid boolean, got 'yes'",
        ),
        ({"templates": 3}, "templates must be 'all', 'classic' or a list"),
    ],
)
def test_bad_writing_settings_are_named(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, overrides)


def test_unknown_template_ids_are_named():
    with pytest.raises(ConfigError, match=r"unknown template id\(s\) \['nope'\]"):
        plan(n=4, templates=["nope", "acc_short_1"])


def test_added_settings_keep_older_fingerprints():
    """Outputs begun before these settings existed still resume: at their defaults they
    stay out of the fingerprint."""
    before = load_config(None, {"reference_date": "2026-11-24"})
    same = load_config(
        None,
        {
            "reference_date": "2026-11-24",
            "templates": "classic",
            "value_forms": "canonical",
            "traits": {},
        },
    )
    assert before.fingerprint() == same.fingerprint()
    assert (
        load_config(None, {"reference_date": "2026-11-24", "value_forms": "all"}).fingerprint()
        != before.fingerprint()
    )


def test_every_planted_value_has_a_span(dp_model):
    """docs/annotation.md: a value a template writes is always marked. 400 tickets of the
    default config (every label, the DP model's health tickets too), plain style, a model
    that writes nothing of its own: no planted value may stand in the text unmarked."""
    from synth.contract import unmarked_values

    cfg = load_config(
        "configs/tickets.yaml",
        {"num_docs": 400, "reference_date": "2026-11-24", "prompt_style": "plain"},
    )
    docs, _ = plan_documents(cfg.updated(dp_model=str(dp_model)), "run")
    rows = render(docs, ScriptedGenerator(lambda p: " All good."), params_from(), "plain", 0)
    unmarked = [r["id"] for r in rows if unmarked_values(r["text"], r["entities"], r["attributes"])]
    assert unmarked == []


def test_asides_are_written_and_never_marked():
    """traits.aside: 1 gives every templated ticket one aside before its sign-off: a
    sentence of shape.yaml's asides or of the aside grammar (about as often), with no
    span in it (docs/annotation.md, rule 4)."""
    from synth.generation.template import SLOT
    from synth.kinds.tickets.shape import shape_lists

    hand = shape_lists()["asides"]
    templates = {t.id: t for sub in load_taxonomy().values() for t in sub.templates}
    traits = {"omission": True, "aside": 1.0, "sign_off": 0.0}
    docs, _ = plan(n=200, prompt_style="plain", traits=traits)
    rows = render(docs, ScriptedGenerator(lambda p: " All good."), params_from(), "plain", 0)
    kinds = Counter()
    for doc, row in zip(docs, rows):
        values = {**doc.persona, **doc.attributes, **doc.surface}
        tail = fill(templates[doc.template_id].body.split(SLOT)[-1], values).rstrip()
        assert doc.pieces[-1].startswith(tail)
        aside = doc.pieces[-1][len(tail) :].strip()
        assert aside[0].isupper() and aside.endswith(".") and "{" not in aside, aside
        kinds["hand" if aside in hand else "grammar"] += 1
        start = row["text"].rindex(aside)
        end = start + len(aside)
        assert not any(e["start"] < end and start < e["end"] for e in row["entities"]), aside
    assert min(kinds.values()) > 0.3 * len(docs), kinds
