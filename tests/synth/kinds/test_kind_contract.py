"""A kind's contract, checked where it enters (synth.kinds.base): a KindBase subclass
needs only TITLE and planner; a member of the wrong type, and a planned document of the
wrong shape, count or place, are one line naming the kind."""

from dataclasses import replace

import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.kinds import ShardPlan, planner
from synth.kinds.base import CheckedPlanner, KindBase, made


class Minimal(KindBase):
    TITLE = "notes"

    def planner(self, cfg, run_id):
        return None


def test_a_kind_base_subclass_needs_only_a_title_and_a_planner():
    kind = made(Minimal, "kind 'notes' (notes:Minimal)")
    assert kind.TITLE == "notes" and kind.EVAL_TASKS is None and kind.check_row({}) == []
    assert kind.evaluation_labels() == (None, [])

    class NoPlanner(KindBase):
        TITLE = "notes"

    with pytest.raises(ConfigError, match=r"^kind 'x' \(m:NoPlanner\) lacks TITLE or planner"):
        made(NoPlanner, "kind 'x' (m:NoPlanner)")

    class Wrong(Minimal):
        TRAIN_FROM_CORPORA = "yes"
        CARD_TASKS = "text-classification"

    with pytest.raises(ConfigError) as refused:
        made(Wrong, "kind 'x' (m:Wrong)")
    assert str(refused.value) == (
        "kind 'x' (m:Wrong): wrong CARD_TASKS (a tuple of strings); TRAIN_FROM_CORPORA (True "
        "or False); docs/extending.md lists what a kind gives"
    )
    with pytest.raises(ConfigError, match="is a class but not a synth.kinds.base.KindBase"):
        made(dict, "kind 'x' (m:dict)")


@pytest.fixture(scope="module")
def tickets(dp_model):
    settings = {"num_docs": 10, "shard_size": 4, "seed": 5, "reference_date": "2026-11-24"}
    cfg = load_config("configs/tickets.yaml", settings | {"dp_model": str(dp_model)})
    return cfg, planner(cfg, "run")


class Broken:
    """A planner whose shard 1 is changed by `change(plan)`."""

    def __init__(self, planner, change):
        self.planner, self.change, self.notes = planner, change, {}

    def plan_shard(self, shard):
        return self.change(self.planner.plan_shard(shard))


def test_real_tickets_pass_and_each_fault_is_one_line_naming_the_kind(tickets):
    real = tickets[1]
    checked = CheckedPlanner(real, "ticket", "run", 10, 4)
    assert [len(checked.plan_shard(s).docs) for s in range(3)] == [4, 4, 2]

    def refused(change) -> str:
        with pytest.raises(ConfigError) as e:
            CheckedPlanner(Broken(real, change), "ticket", "run", 10, 4).plan_shard(1)
        return str(e.value)

    first = "kind 'ticket' planned shard 1 wrongly: "
    fix = "; fix its planner (docs/extending.md)"

    def doc(plan, **changed):
        return plan._replace(docs=[replace(plan.docs[0], **changed), *plan.docs[1:]])

    assert (
        refused(lambda p: p.docs)
        == first + "plan_shard returned list, not a synth.kinds.ShardPlan" + fix
    )
    assert (
        refused(lambda p: p._replace(docs=p.docs[:3]))
        == first + "3 documents for a shard of 4" + fix
    )
    assert refused(lambda p: doc(p, pieces="a")) == (
        first + "document 4: pieces is str 'a', not list[str]" + fix
    )
    assert refused(lambda p: doc(p, entities={"date": 3})).startswith(
        first + "document 4: entities is dict"
    )
    assert refused(lambda p: doc(p, pieces=[])) == (
        first + "document 4: pieces is empty (it holds the text around the slots: slots + 1 "
        "pieces)" + fix
    )
    assert refused(lambda p: doc(p, doc_type="memo")) == (
        first + "document 4: run_id, doc_type, shard are 'run', 'memo', 1, not 'run', "
        "'ticket', 1" + fix
    )
    assert refused(lambda p: doc(p, index=0)) == (
        first + "document run-00000000 where run-00000004 belongs (index: the run's position)" + fix
    )
    assert (
        refused(lambda p: ShardPlan(p.docs, [], None))
        == first + "counts is list, not a dict of counts" + fix
    )
    # issue 72: a string among the counts passed, both shards were written, and the run
    # failed building the manifest with a TypeError traceback
    assert refused(lambda p: ShardPlan(p.docs, {"rows": "4"}, None)) == (
        first + "counts['rows'] is str '4', not a whole number" + fix
    )
    assert refused(lambda p: ShardPlan(p.docs, {"labels": {"a": 1.5}}, None)) == (
        first + "counts['labels']['a'] is float 1.5, not a whole number" + fix
    )
