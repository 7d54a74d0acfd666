"""Generate synthetic HR tickets: DP/public sampling on the driver, LLM slots on Ray.

    python -m jobs.generate --config configs/tickets.yaml --num-docs 64 --output out/tickets
    hrsynth generate --config configs/tickets.yaml --num-docs 64 --output out/tickets
    ray job submit --working-dir . -- python -m jobs.generate --config configs/tickets.yaml \
        --num-docs 100000 --output /shared/tickets --num-actors 8

Writes part-*.parquet (the output contract), _manifest.json and, when a DP model is
used, _dp_samples.parquet (its sampled rows, for evaluate's privacy task) into --output. A rerun
with the same config resumes: finished shards are skipped, none is duplicated.
"""

import os
import sys
import time
from collections import Counter

from jobs.entry import main_for
from jobs.progress import Progress
from synth import RunFailed
from synth.config.jobs import GenerateOptions
from synth.config.options import options_from

OPTIONS = GenerateOptions


def run(options) -> dict:
    args = options_from(GenerateOptions, options)
    # Imported here so that `hrsynth --help` does not wait for pandas and diffprivlib.
    from dataclasses import asdict

    from synth.config.generate import audit_settings, load_config
    from synth.deid.audit import merge_counts
    from synth.docs import kind, plan_documents
    from synth.io.card import write_card
    from synth.io.shards import (
        MANIFEST,
        finished_shards,
        open_output,
        read_run,
        read_summaries,
        write_dp_samples,
        write_manifest,
    )
    from synth.io.storage import join, write_json

    started = time.time()
    cfg = load_config(args.config, args.overrides())
    # The actors write the shards: a local folder is made absolute for them.
    out = args.output if "://" in args.output else os.path.abspath(args.output)
    previous = read_run(out) if cfg.reference_date else None
    if previous and args.config and "reference_date" not in _yaml_keys(args.config):
        cfg.reference_date = previous["config"].get("reference_date", cfg.reference_date)
    from synth.generation.backends import check_engine

    check_engine(cfg)  # an unknown model or a silent endpoint fails here, before Ray starts
    run_info = open_output(out, cfg.run_record(), cfg.fingerprint())
    docs, notes = plan_documents(cfg, run_info["run_id"])
    dp_samples = None
    if notes["dp_samples"] is not None:
        dp_samples = write_dp_samples(out, notes["dp_samples"])
    shard_sizes = Counter(d.shard for d in docs)
    done = finished_shards(out, shard_sizes)
    todo = [d for d in docs if d.shard not in done]
    print(
        f"{len(docs)} documents in {len(shard_sizes)} shards; {len(done)} already written, "
        f"{len(todo)} documents to generate"
    )
    written_tokens = written_docs = failed_docs = shards_written = 0
    gen_started = time.time()
    progress = Progress(len(todo), args.progress_every_s)

    def on_shard(shard, rows, tokens, failed):
        nonlocal written_tokens, written_docs, failed_docs, shards_written
        written_tokens += tokens
        written_docs += rows
        failed_docs += failed
        shards_written += 1
        progress.shard_written(shard, rows, tokens)
        check_failures(failed_docs, written_docs, cfg.max_error_share, shards_written)

    from synth.generation.backends import backend_for

    if todo:
        from jobs.on_ray import slot_filling

        try:
            slot_filling.generate(
                todo, cfg, out, on_shard, on_tally=progress.tally, poll_s=progress.poll_s
            )
        finally:
            progress.close()
    wall = time.time() - started
    gen_wall = time.time() - gen_started
    declared = kind(cfg.doc_type).declared_entities(docs, cfg)
    params = cfg.generation_params()
    summaries = read_summaries(out)
    manifest = write_manifest(
        out,
        run_info,
        declared,
        {
            "pii_audit": merge_counts([s.get("pii_audit", {}) for s in summaries]),
            "model": cfg.model,
            "backend": backend_for(cfg.model, cfg.backend),
            "dtype": cfg.dtype,
            "prompt_style": cfg.prompt_style,
            "generation_parameters": params.to_dict(),
            "pii_audit_settings": asdict(audit_settings(cfg.pii_audit)),
            "epsilon_ledgers": notes["dp_models"],
            "dp_samples": dp_samples,
            **({"cv_roles": notes["cv_roles"]} if "cv_roles" in notes else {}),
            **({"writing": notes["writing"]} if "writing" in notes else {}),
            "this_run": {
                "documents_generated": len(todo),
                "wall_s": round(wall, 2),
                "generation_wall_s": round(gen_wall, 2),
                "tokens_generated": written_tokens,
                "tokens_per_s": round(written_tokens / gen_wall, 2) if todo else None,
            },
        },
        summaries,
    )
    free = manifest.get("writing", {}).get("traits", {}).get("prompt_style", {}).get("free", 0)
    if free:  # free-form tickets that hold their variables (the rest are flagged, empty)
        manifest["free_form_on_topic_share"] = round(
            1 - manifest["rows_flagged_no_variables"] / free, 3
        )
        write_json(join(str(out), MANIFEST), manifest)
    write_card(out, manifest)  # README.md: the dataset card, and what datasets loads
    print_summary(out, manifest)
    return manifest


def check_failures(failed: int, done: int, max_share: float, shards: int) -> None:
    """Stop the run, keeping what was written, once too many rows have failed."""
    if done and failed / done > max_share:
        raise RunFailed(
            f"{failed} of the {done} rows generated so far failed (more than "
            f"max_error_share {max_share:g}); the {shards} shard(s) written are kept and a "
            "rerun resumes after them; read the rows' `error` column for why"
        )


def _yaml_keys(path: str) -> set:
    from synth.io.files import read_yaml

    doc = read_yaml(path, "config")
    return set(doc or {})


def print_summary(out: str, m: dict) -> None:
    cov = m["entity_coverage"]["per_label"]
    print(f"\n{'label':<36}{'rows':>6}{'with entity':>13}{'vars found':>12}")
    for label, n in m["rows_per_label"].items():
        c = cov.get(label, {})
        print(
            f"{label:<36}{n:>6}{c.get('share_rows_with_entity', 0):>13.0%}"
            f"{c.get('share_variables_found', 0):>12.0%}"
        )
    o = m["entity_coverage"]["overall"]
    print(
        f"{'all':<36}{m['rows']:>6}{o['share_rows_with_entity']:>13.0%}"
        f"{o['share_variables_found']:>12.0%}"
    )
    r = m["this_run"]
    print(
        f"\ntokens generated this run: {r['tokens_generated']} in {r['generation_wall_s']} s "
        f"({r['tokens_per_s']} tokens/s); rows with a slot error: {m['rows_with_error']}"
    )
    spent = {k: v["spent"] for k, v in m["epsilon_ledgers"].items()}
    print(f"ε spent by the DP models used: {spent or 'none'}")
    print(f"output: {out}")


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "generate", argv)


if __name__ == "__main__":
    sys.exit(main())
