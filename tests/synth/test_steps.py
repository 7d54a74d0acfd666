"""A job as a list of steps (synth.steps): a user's step placed where its AFTER says,
checked before any work, its counts kept; deidentify's own steps in order."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from synth import ConfigError, plugins
from synth.deid.analyzer.analyze import Analyze, DisplayOrder
from synth.deid.pipeline import READ, Anonymize, Explain
from synth.deid.writing import WriteShards, check_job_steps, job_steps
from synth.steps import Batch, check_order, placed, run_steps


class Longer:
    """A user's step as a package writes it: documents under `min_words` words left out."""

    NAME, AFTER, NEEDS, GIVES = "longer", "read", ("text",), ()

    def __init__(self, min_words: str = "3"):
        self.min_words = int(min_words)

    def run(self, batch: Batch) -> Batch:
        wanted = [len(t.split()) >= self.min_words for t in batch["text"]]
        return batch.keep(wanted, self.NAME, "short documents")


class TooEarly(Longer):
    NAME, NEEDS = "too_early", ("found",)


class Nowhere(Longer):
    NAME, AFTER = "nowhere", "no such step"


@pytest.fixture
def registered(monkeypatch):
    here = "tests.synth.test_steps"
    steps = {"longer": f"{here}:Longer", "too_early": f"{here}:TooEarly"}
    steps["nowhere"] = f"{here}:Nowhere"
    monkeypatch.setattr(plugins, "installed", lambda group: steps if group == "steps" else {})


def names(steps) -> list[str]:
    return [s.NAME for s in steps]


def test_deidentify_is_its_steps_in_order():
    ours = [DisplayOrder, Analyze, Anonymize, Explain]
    check_order([*ours, WriteShards], READ, "deidentify")  # each gets what it needs
    assert names(ours + [WriteShards]) == [
        "display order", "analyze", "anonymize", "explain", "write"
    ]  # fmt: skip
    with pytest.raises(ConfigError, match="step 'anonymize' of deidentify needs found"):
        check_order([DisplayOrder, Anonymize], READ, "deidentify")


def test_a_step_goes_after_the_step_it_names():
    ours = [DisplayOrder, Analyze, Anonymize]
    first, second = Longer(), Longer()
    assert placed(ours, [first, second], "deidentify")[:2] == [first, second]
    late = TooEarly()
    late.AFTER = "analyze"
    assert placed(ours, [late], "deidentify")[2] is late


def test_steps_placed_wrong_are_one_line_before_any_work(registered):
    with pytest.raises(ConfigError, match="'too_early' of deidentify needs found"):
        check_job_steps(["too_early"], None, False, True)
    with pytest.raises(ConfigError, match="AFTER is 'no such step', not a step of deidentify"):
        check_job_steps(["nowhere"], None, False, True)
    with pytest.raises(ConfigError, match="--step 'absent': no installed package registers"):
        check_job_steps(["absent"], None, False, True)
    with pytest.raises(ConfigError, match="step 'longer'.*raised TypeError"):
        check_job_steps(["longer"], "limit=3", False, True)  # an option it does not take
    check_job_steps(["longer"], "min_words=4", True, True)


def test_a_users_step_leaves_documents_out_and_counts_them(registered, tmp_path):
    texts = ["Maria Lopez asked for leave on 3 May.", "Hi Maria", "Thanks, noted for Paul."]
    block = pa.table(
        {
            "id": ["a", "b", "c"],
            "original_id": ["a", "b", "c"],
            "text": texts,
            "label": [None] * 3,
            "shard": [0] * 3,
        }
    )
    options = {"method": "tag", "seed": 0, "country": "US", "run_id": "r"}
    options |= {"step": ["longer"], "step_option": "min_words=3"}
    steps = job_steps(options, str(tmp_path), None, ([Names()], None))
    assert names(steps) == ["documents", "write"]
    assert names(steps[0].steps) == ["longer", "display order", "analyze", "anonymize"]
    written = run_steps(steps, Batch.of_table(block))
    assert (written["shard"], written["rows"]) == ([0], [2])
    assert written.counts["longer: short documents"] == 1
    assert written.counts["write: documents written"] == 2
    rows = pq.read_table(tmp_path).sort_by("id").to_pylist()
    assert [r["text"] for r in rows] == [
        "[PERSON] asked for leave on 3 May.",
        "Thanks, noted for Paul.",
    ]


class Names:
    name = "names"

    def detect(self, texts):
        from synth.deid.spans import Span

        out = []
        for text in texts:
            at = text.find("Maria Lopez")
            out.append([Span(at, at + 11, "PERSON", "names")] if at >= 0 else [])
        return out
