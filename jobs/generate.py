"""Generate synthetic HR tickets: shards planned (DP/public sampling) and written by Ray actors.

    python -m jobs.generate --config configs/tickets.yaml --num-docs 64 --output out/tickets
    hrsynth generate --config configs/tickets.yaml --num-docs 64 --output out/tickets
    ray job submit --working-dir . -- python -m jobs.generate --config configs/tickets.yaml \
        --num-docs 100000 --output /shared/tickets --num-actors 8

Writes data/part-*.parquet (the output contract) into --output, alone, and beside it, in
OUTPUT.hrsynth/ (synth.io.layout), _manifest.json and, when a DP model is used,
_dp_samples.parquet (its sampled rows, for evaluate's privacy task; joined from
_dp_samples/part-*.parquet). The driver hands out shard numbers only, so its
memory does not grow with --num-docs. A rerun with the same config resumes: finished
shards are skipped, none is duplicated.
"""

import os
import sys
import time

import numpy as np

from jobs.entry import main_for
from jobs.progress import Progress
from synth import ConfigError, RunFailed
from synth.config.generate_options import GenerateOptions
from synth.config.options import options_from

OPTIONS = GenerateOptions


def run(options) -> dict:
    args = options_from(GenerateOptions, options)
    from jobs.on_ray.session import verbose_console

    with verbose_console(args.verbose):
        return _run(args)


def _run(args) -> dict:
    from synth import kinds
    from synth.config.generate import load_config
    from synth.generation import backends
    from synth.generation.backends import Backend
    from synth.io.locations import resolved
    from synth.io.lock import output_lock
    from synth.io.shards import open_output
    from synth.kinds.card import write_card

    started = time.time()
    cfg = load_config(args.config, args.overrides())
    backends.check_chosen(cfg.engine.backend)  # any other broken plugin: a warning line
    kinds.check_chosen(cfg.run.doc_type)
    # The actors write the shards: a local folder is made absolute for them.
    out = resolved(args.output)
    _keep_reference_date(cfg, args.config, out)
    threads = cfg.scale.threads_per_actor or max(1, (os.cpu_count() or 1) // cfg.scale.num_actors)
    spec = cfg.engine  # decided once, when the config was checked; carried down from here
    backend = Backend(spec)
    backend.prepare()  # an unknown model or a silent endpoint fails here, before Ray starts
    print(backend.start_line(threads), flush=True)
    first_plan = _check_kind(cfg)
    backend.try_once(cfg.generation_params(), cfg.run.seed)  # a plugin's: one real prompt
    with output_lock(out, "generate"):
        params = cfg.generation_params()
        run_info = open_output(
            out, cfg.run_record(), cfg.fingerprint(), lambda: backend.batch_free(params)
        )
        planner, todo = _plan(cfg, run_info, out)
        to_generate = _documents_in(cfg, todo)
        gen_started = time.time()
        progress = Progress(
            to_generate,
            args.progress_every_s,
            planned_tokens=_planned_tokens(first_plan, cfg, to_generate),
        )
        written = _generate(planner, todo, cfg, out, progress)
        timing = {
            "documents_generated": to_generate,
            "wall_s": round(time.time() - started, 2),
            "generation_wall_s": round(time.time() - gen_started, 2),
        }
        manifest = build_manifest(
            cfg, out, run_info, planner.notes, written["tokens"], timing, spec.backend
        )
        write_card(out, manifest)  # README.md: the dataset card, and what datasets loads
    print_summary(out, manifest)
    check_output_failures(manifest, cfg.scale.max_error_share)
    return manifest


def _keep_reference_date(cfg, config_path: str | None, out: str) -> None:
    """A resumed run keeps the first run's 'today' unless the config file sets one."""
    from synth.config.generate import file_settings
    from synth.io.shards import read_run

    previous = read_run(out) if cfg.run.reference_date else None
    if previous and config_path and "reference_date" not in file_settings(config_path):
        cfg.run.reference_date = previous["config"].get("reference_date", cfg.run.reference_date)


def _check_kind(cfg) -> None:
    """The kind's first shard planned and checked (synth.kinds.base.checked_plan), and its
    notes' names, on the driver before anything is written or Ray starts: a kind's
    wrong document is one line here. The only documents the driver plans."""
    from synth.kinds import planner
    from synth.kinds.base import CheckedPlanner

    doc_type, num_docs, shard_size = cfg.run.doc_type, cfg.run.num_docs, cfg.run.shard_size
    first = CheckedPlanner(planner(cfg, "check"), doc_type, "check", num_docs, shard_size)
    plan = first.plan_shard(0)
    check_kind_notes(doc_type, first.notes, plan.counts)
    return plan


def _planned_tokens(plan, cfg, documents: int) -> int | None:
    """The tokens `documents` are expected to take, from the first shard's plan (the
    progress line's ETA before any document is done)."""
    from synth.generation.rollout import expected_tokens

    docs = plan.docs
    if not docs or not documents:
        return None
    params = cfg.generation_params()
    each = [expected_tokens(d.pieces, d.target_words, params) for d in docs]
    return int(sum(each) / len(each) * documents)


def _plan(cfg, run_info: dict, out: str):
    """The run's planner (settings checked, data loaded) and the shards not yet written
    (numbers only: the actors plan the documents)."""
    from synth.io.shards import finished_shards
    from synth.kinds import planner, shard_count, shard_ids
    from synth.kinds.base import CheckedPlanner

    run_id, num_docs, shard_size = run_info["run_id"], cfg.run.num_docs, cfg.run.shard_size
    run_planner = CheckedPlanner(
        planner(cfg, run_id), cfg.run.doc_type, run_id, num_docs, shard_size
    )
    shards = shard_count(num_docs, shard_size)
    done = finished_shards(out, lambda s: shard_ids(run_id, num_docs, shard_size, s), run_id)
    todo = np.setdiff1d(np.arange(shards, dtype=np.int64), np.fromiter(done, np.int64))
    print(
        f"{cfg.run.num_docs} documents in {shards} shard{'s' * (shards != 1)}; "
        f"{len(done)} already written, {_documents_in(cfg, todo)} documents to generate"
    )
    return run_planner, todo


def _documents_in(cfg, shards: np.ndarray) -> int:
    """The documents the given shards hold (the last shard may be short)."""
    return int(np.minimum(cfg.run.shard_size, cfg.run.num_docs - shards * cfg.run.shard_size).sum())


def _generate(planner, todo, cfg, out: str, progress: Progress) -> dict:
    """The shards through the actor pool, shard counts tallied as shards come back;
    the run stops (shards kept) once more than max_error_share of the rows failed."""
    written = {"tokens": 0, "docs": 0, "failed": 0, "shards": 0}

    def on_shard(shard, rows, tokens, failed):
        written["tokens"] += tokens
        written["docs"] += rows
        written["failed"] += failed
        written["shards"] += 1
        check_failures(
            written["failed"], written["docs"], cfg.scale.max_error_share, written["shards"]
        )

    if len(todo):
        from jobs.on_ray import slot_filling

        try:
            slot_filling.generate(
                planner,
                todo,
                cfg,
                out,
                on_shard,
                on_tally=progress.tally,
                poll_s=progress.poll_s,
                on_landed=progress.shard_written,  # a line per shard as it lands on disk
            )
        except RunFailed:
            # The tally stops at the shard that tipped it; others may have landed since.
            failed, rows, shards = _on_disk(out)
            raise RunFailed(
                failure_line(failed, rows, cfg.scale.max_error_share)
                + f"; the {shards} shard(s) on disk are kept, and a rerun resumes after them "
                "without retrying their failed rows"
            ) from None
        finally:
            progress.close()
    return written


def _on_disk(out: str) -> tuple[int, int, int]:
    """(failed rows, rows, shards) of the shards on disk, from their footers."""
    from synth.io.shards import iter_summaries

    failed = rows = shards = 0
    for summary in iter_summaries(out):
        failed, rows = failed + summary["rows_with_error"], rows + summary["rows"]
        shards += 1
    return failed, rows, shards


def failure_line(failed: int, rows: int, max_share: float) -> str:
    return (
        f"{failed} of the {rows} rows written failed (more than --max-error-share "
        f"{max_share:g}); read the rows' `error` column for why"
    )


def check_output_failures(manifest: dict, max_share: float) -> None:
    """A finished output whose share of failed rows passes max_error_share fails every
    time it is run, not only the first: a rerun finds its shards whole and does not
    retry their rows."""
    failed, rows = manifest["rows_with_error"], manifest["rows"]
    if rows and failed / rows > max_share:
        raise RunFailed(
            failure_line(failed, rows, max_share)
            + "; they stay in their shards and a rerun does not retry them: generate them "
            "again into a new --output, or rerun with a higher --max-error-share to accept them"
        )


def build_manifest(cfg, out: str, run_info, notes, tokens: int, timing: dict, backend: str) -> dict:
    """The one place the manifest is made: the shards' footers (their planning counts
    summed), the run's settings, the ε spent and what this run did; written beside the
    shards with the DP samples joined into one file."""
    from dataclasses import asdict

    from synth.deid.audit import merge_counts
    from synth.io.layout import MANIFEST, kept
    from synth.io.shards import (
        iter_summaries,
        join_dp_samples,
        summed_summaries,
        write_manifest,
    )
    from synth.io.storage import write_json
    from synth.kinds import kind, sum_counts, with_counts

    total = summed_summaries(
        iter_summaries(out), merges={"pii_audit": merge_counts, "planning": sum_counts}
    )
    notes = with_counts(notes, total["planning"] if total["shards"] else {})
    samples_file = join_dp_samples(out, total["dp_shards"]) if total["dp_shards"] else None
    labels = set(total["rows_per_label"])
    gen_wall = timing["generation_wall_s"]
    manifest = write_manifest(
        out,
        run_info,
        kind(cfg.run.doc_type).declared_entities(labels, cfg),
        {
            "pii_audit": total.get("pii_audit") or merge_counts([]),
            # the engine's model_ref, as the rows record it (a plugin may name its own)
            "model": _model_of(total["rows_per_model"], cfg.generator.model),
            "rows_per_model": dict(sorted(total["rows_per_model"].items())),
            "backend": backend,
            "dtype": cfg.generator.dtype,
            "prompt_style": cfg.generator.prompt_style,
            "generation_parameters": cfg.generation_params().to_dict(),
            "pii_audit_settings": asdict(cfg.audit_settings()),
            "epsilon_ledgers": notes.get("dp_models", {}),  # a kind with no DP model: none
            "dp_samples": samples_file,
            **kind_notes(notes),  # what the kind reports: cv_roles, writing, a plugin's own
            "this_run": {
                **timing,
                "tokens_generated": tokens,
                "tokens_per_s": round(tokens / gen_wall, 2)
                if timing["documents_generated"]
                else None,
            },
        },
        total,
    )
    free = manifest.get("writing", {}).get("traits", {}).get("prompt_style", {}).get("free", 0)
    if free:  # free-form tickets that hold their variables (the rest are flagged, empty)
        manifest["free_form_on_topic_share"] = round(
            1 - manifest["rows_flagged_no_variables"] / free, 3
        )
        write_json(kept(out, MANIFEST), manifest)
    return manifest


# The manifest's own keys (build_manifest, synth.io.shards.write_manifest), which a
# kind's notes may not take.
MANIFEST_KEYS = frozenset(
    [
        "contract_version",
        "run_id",
        "config",
        "seed",
        "rows",
        "rows_per_label",
        "rows_with_error",
        "rows_flagged_no_variables",
        "rows_with_fallback",
        "planted_values_without_span",
        "entity_coverage",
        "tokens_generated",
        "tokens_prompt",
        "tokens_prefilled",
        "shards",
        "pii_audit",
        "model",
        "rows_per_model",
        "backend",
        "dtype",
        "prompt_style",
        "generation_parameters",
        "pii_audit_settings",
        "epsilon_ledgers",
        "dp_samples",
        "this_run",
        "free_form_on_topic_share",
    ]
)


def _model_of(rows_per_model, configured: str) -> str:
    """What the manifest and card call the run's model: the model_ref its rows record
    (the most rows' where a resumed run changed it), else the configured one."""
    return max(rows_per_model, key=rows_per_model.get) if rows_per_model else configured


def kind_notes(notes: dict) -> dict:
    """A kind's notes and summed planning counts for the manifest: all but its ε ledgers
    (`dp_models`, which the manifest keeps as epsilon_ledgers)."""
    return {k: v for k, v in notes.items() if k not in ("dp_models", "dp_samples")}


def check_kind_notes(doc_type: str, notes: dict, counts: dict) -> None:
    """A kind's notes or counts named like a manifest key would replace it: one line
    before any work."""
    taken = sorted((set(notes) | set(counts)) & MANIFEST_KEYS)
    if taken:
        raise ConfigError(
            f"kind {doc_type!r} reports {taken} in its planner's notes or a shard's counts, "
            "names the manifest has already; rename them (docs/extending.md)"
        )


def check_failures(failed: int, done: int, max_share: float, shards: int) -> None:
    """Stop the run, keeping what was written, once too many rows have failed."""
    if done and failed / done > max_share:
        raise RunFailed(
            f"{failed} of the {done} rows generated so far failed (more than "
            f"--max-error-share {max_share:g}); the {shards} shard(s) written are kept and a "
            "rerun resumes after them; read the rows' `error` column for why"
        )


def print_summary(out: str, m: dict) -> None:
    from synth.io.layout import sibling

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
        f"({r['tokens_per_s']} tokens/s); rows with a slot error: {m['rows_with_error']}; "
        f"with a slot written from their attributes (fallback_slots): {m['rows_with_fallback']}"
    )
    if m.get("tokens_prefilled") is not None:  # the engine counts what it computed afresh
        cached = m["tokens_prompt"] - m["tokens_prefilled"]
        print(
            f"prompt tokens (all runs): {m['tokens_prompt']} asked, {m['tokens_prefilled']} "
            "prefilled" + (f", {cached} read from the engine's KV cache" if cached > 0 else "")
        )
    spent = {k: v["spent"] for k, v in m["epsilon_ledgers"].items()}
    print(f"ε spent by the DP models used: {spent or 'none'}")
    print(f"output: {out} (its manifest, card and run file beside it: {sibling(out)})")


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "generate", argv)


if __name__ == "__main__":
    sys.exit(main())
