import pyarrow as pa
import pyarrow.parquet as pq

from synth.deid.writing import job_steps
from synth.steps import Batch, run_steps


class FailsOnSecrets:
    """A detector whose error quotes the document, as library errors sometimes do."""

    def detect(self, texts):
        for text in texts:
            if "secret" in text:
                raise ValueError(f"cannot handle {text!r}")
        return [[] for _ in texts]


def test_a_failed_document_is_written_without_text_and_its_error_quotes_nothing(tmp_path):
    block = pa.table(
        {
            "id": ["a", "b"],
            "original_id": ["a", "b"],
            "text": ["a plain question", "my secret is Paul Smith"],
            "label": [None, None],
            "shard": [0, 0],
        }
    )
    options = {"method": "tag", "seed": 0, "country": "US", "run_id": "r"}
    run_steps(
        job_steps(options, str(tmp_path), None, ([FailsOnSecrets()], None)), Batch.of_table(block)
    )
    rows = pq.read_table(tmp_path).sort_by("id").to_pylist()
    assert rows[0]["text"] == "a plain question" and rows[0]["error"] is None
    assert rows[1]["text"] is None and rows[1]["error"] == "ValueError"
