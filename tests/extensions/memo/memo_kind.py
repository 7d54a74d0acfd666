"""A third document kind, as a user adds one (docs/extending.md): this module, a
synth.kinds.base.KindBase with what differs from its defaults, and its entry point in
pyproject.toml beside it. A
memo announces a policy change on a date; its only variable is the date.
tests/test_extensions.py installs it and runs it through `hrsynth generate`;
tests/synth/kinds/test_kind_registry.py registers it in KINDS instead."""

from dataclasses import dataclass

from synth import ConfigError
from synth.kinds import ShardPlan, shard_rows, shard_streams
from synth.kinds.base import KindBase
from synth.kinds.persona import make_personas
from synth.record import PlannedDocument
from synth.typed import option

LABELS = ("Memo_Policy", "Memo_Closure")


@dataclass
class MemoSettings:
    """The config's `memo:` section."""

    opening: str = option("From", "the words a memo opens with, before its date")

    def check(self) -> None:
        if not self.opening.strip():
            raise ConfigError("memo.opening is empty; give the words a memo opens with")


class MemoPlanner:
    def __init__(self, cfg, run_id: str):
        self.cfg, self.run_id, self.notes = cfg, run_id, {}

    def plan_shard(self, shard: int) -> ShardPlan:
        size = self.cfg.run.shard_size
        n = shard_rows(self.cfg.run.num_docs, size, shard)
        (rng,) = shard_streams(self.cfg.run.seed, shard, 1)
        personas = make_personas(n, self.cfg.run.countries, rng)
        docs = []
        for i in range(n):
            label = LABELS[int(rng.integers(len(LABELS)))]
            date = f"2027-0{int(rng.integers(1, 10))}-01"
            docs.append(
                PlannedDocument(
                    index=shard * size + i,
                    shard=shard,
                    run_id=self.run_id,
                    doc_type="memo",
                    label=label,
                    category="Memo",
                    subcategory=label.split("_")[1],
                    template_id="memo-1",
                    header="",
                    pieces=[f"{self.cfg.memo.opening} {date} on, ", ""],
                    instruction="",
                    entities={"date": date},
                    attributes={"date": date},
                    persona=personas[i],
                )
            )
        return ShardPlan(docs, {"memos": n}, None)


class MemoKind(KindBase):
    TITLE = "memos"
    CARD_TASKS = ("text-classification", "token-classification")
    CARD_TEXT = "Synthetic memos announcing policy changes, each on a date; made by hrsynth."
    EVAL_TASKS = ("classify", "fasttext")
    SECTION, SETTINGS = "memo", MemoSettings

    def planner(self, cfg, run_id: str) -> MemoPlanner:
        return MemoPlanner(cfg, run_id)

    def check_config(self, cfg) -> None:
        if cfg.generator.prompt_style != "plain":
            raise ConfigError("prompt_style: memos are continued as plain text; use 'plain'")

    def declared_entities(self, labels, cfg) -> dict[str, set[str]]:
        return {label: {"date"} for label in labels}

    def check_row(self, row: dict) -> list[str]:
        return [] if row["category"] == "Memo" else ["a memo's category is Memo"]

    def evaluation_labels(self) -> tuple[list[str], list[str]]:
        return list(LABELS), ["date"]
