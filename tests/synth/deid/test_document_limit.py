"""Issue 64: a document longer than the detectors can read in bounded time (1 MB without
punctuation made no progress in 240 s) is refused in one line before any work, naming
the document and the fix."""

import json

from jobs import deidentify
from synth.deid.corpus import MAX_DOCUMENT_CHARS


def test_a_one_megabyte_document_is_refused_in_one_line(tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    rows = [
        {"id": "a", "text": "Hi, I am Ann."},
        {"id": "ann.lee@example.com", "text": "word " * 200_000},
    ]
    docs.write_text("\n".join(json.dumps(r) for r in rows))
    argv = ["--input", str(docs), "--output", str(tmp_path / "out"), "--detectors", "presidio"]
    assert deidentify.main(argv) == 2
    err = capsys.readouterr().err.strip()
    # named by its line, never by its id: an id may be an e-mail address (issue 72)
    assert "docs.jsonl: line 2: the document holds 1,000,000 characters, more than 200,000" in err
    assert "ann.lee" not in err
    assert "split it" in err and "\n" not in err
    assert not (tmp_path / "out").exists()


def test_a_document_at_the_limit_is_read(tmp_path):
    from synth.deid.corpus import read_documents

    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "text": "x" * MAX_DOCUMENT_CHARS}))
    assert read_documents(str(docs)).num_rows == 1
