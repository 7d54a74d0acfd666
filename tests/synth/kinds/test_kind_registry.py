"""A new document kind is one module and one line in synth.kinds.KINDS: the memo kind
(tests/extensions/memo/memo_kind.py), registered by a fixture, is configured, planned, rendered, checked
against the contract, offered its evaluation tasks and named on the dataset card, with
nothing else in hrsynth told about it."""

import pytest

from synth import ConfigError, kinds
from synth.config.generate import load_config
from synth.generation.params import params_from
from synth.generation.render import render
from synth.kinds.card import header
from tests.synth.test_golden import ScriptedEngine


@pytest.fixture
def memo(monkeypatch):
    """The one line a new kind adds."""
    monkeypatch.setitem(kinds.KINDS, "memo", "tests.extensions.memo.memo_kind:MemoKind")


def memo_config(**more):
    settings = {"doc_type": "memo", "num_docs": 6, "shard_size": 4, "seed": 1, "dp_model": None}
    return load_config("configs/tickets.yaml", {**settings, "prompt_style": "plain", **more})


def test_a_registered_kind_is_planned_rendered_and_checked(memo):
    cfg = memo_config()
    planned, notes = kinds.plan_documents(cfg, "memo-run")
    assert [d.index for d in planned] == list(range(6)) and notes["memos"] == 6
    rows = render(planned, ScriptedEngine(), params_from("default", {}), "plain", 1)
    assert len(rows) == 6
    for row in rows:
        assert row["doc_type"] == "memo" and row["text"].startswith("From 2027-0")
        assert [e["label"] for e in row["entities"]] == ["date"]
        assert kinds.check_row(row) == []
    assert kinds.check_row({**rows[0], "category": "Ticket"}) == ["a memo's category is Memo"]


def test_a_registered_kind_checks_its_own_config(memo):
    with pytest.raises(ConfigError, match="memos are continued as plain text"):
        memo_config(prompt_style="chat")


def test_a_registered_kind_names_its_card_and_its_evaluation(memo):
    manifest = {"config": {"doc_type": "memo"}, "rows": 6}
    meta = header(manifest)
    assert meta["pretty_name"] == "hrsynth synthetic HR memos"
    assert meta["task_categories"] == ["text-classification", "token-classification"]
    assert kinds.kind("memo").EVAL_TASKS == ("classify", "fasttext")


def test_an_unregistered_kind_is_refused_with_the_list():
    """(A name docs/extending.md does not use: following the docs breaks no test.)"""
    with pytest.raises(ConfigError, match=r"doc_type 'letter' unknown; use one of \['cv', "):
        memo_config(doc_type="letter")


def test_a_registered_kind_owns_its_config_section(memo, tmp_path):
    """The memo kind's `memo:` section: read, checked, kept in the record (as memo.opening,
    after the first release's keys) and read back from it; nothing in synth/config names it."""
    from synth.config.generate import GenerateConfig

    cfg = memo_config()
    record = cfg.to_dict()
    assert cfg.memo.opening == "From" and list(record)[-1] == "memo.opening"
    assert GenerateConfig.from_flat(record) == cfg
    for text, message in [
        ("memo: {openin: As of}\n", r"memo: unknown setting\(s\) \['openin'\]"),
        ("memo: {opening: 3}\n", "memo.opening must be a string, got 3"),
        ("memo: {opening: ' '}\n", "memo.opening is empty"),
    ]:
        (tmp_path / "c.yaml").write_text(text + "run: {doc_type: memo, dp_model: null}\n")
        with pytest.raises(ConfigError, match=message):
            load_config(str(tmp_path / "c.yaml"))
