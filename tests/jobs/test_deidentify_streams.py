"""`deidentify` streams its input (issue 72: 10,000 documents of 150,000 characters took
the driver to 7.4 GB before the first shard). The Ray edge is replaced here by one that
writes nothing and records, as it takes each shard, how many shards the reader has read:
never more than the ones handed over and the one being read. The real run's driver
memory is benchmarks/deid/memory.py's (281.5 MB on 1.43 GB of input)."""

import json

from jobs import deidentify
from jobs.on_ray import deidentifying
from synth.deid import corpus


def test_the_input_is_read_a_shard_at_a_time_as_actors_take_them(tmp_path, monkeypatch):
    path = tmp_path / "in.jsonl"
    path.write_text(
        "\n".join(json.dumps({"id": f"e{i}@x.org", "text": f"Note {i}."}) for i in range(50))
    )
    read, seen = [], []
    real = corpus.document_batches

    def counted(*args, **kwargs):
        for batch in real(*args, **kwargs):
            read.append(batch.num_rows)
            yield batch

    def edge(blocks, options, output, key_output, num_actors, shards, on_shard):
        for block in blocks:
            seen.append((len(read), block.column("shard")[0].as_py(), block.num_rows))

    monkeypatch.setattr(corpus, "document_batches", counted)
    monkeypatch.setattr(deidentifying, "deidentify", edge)
    options = {"input": str(path), "output": str(tmp_path / "out"), "detectors": "presidio"}
    deidentify.run(options | {"shard_size": 8, "method": "tag"})
    assert [(shard, rows) for _, shard, rows in seen] == [(s, 8) for s in range(6)] + [(6, 2)]
    # when shard s was handed over, s + 1 shards had been read: none ahead of it
    assert [count for count, _, _ in seen] == list(range(1, 8))
