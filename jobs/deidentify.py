"""De-identify real HR documents: detect personal data, then tag it or replace it, or have
a language model rewrite each document.

    hrsynth deidentify --input tickets.jsonl --output out/shareable --method surrogate
    python -m jobs.deidentify --input docs/ --output out/tagged --method tag \\
        --detectors presidio,ner --ner-model out/detector/model
    hrsynth deidentify --input cvs.csv --output out/rewritten --method rewrite \\
        --model openai:Llama-3.1-8B-Instruct --base-url http://vllm:8000/v1
    ray job submit --working-dir . -- python -m jobs.deidentify --input /data/tickets.parquet \\
        --output /shared/shareable --num-actors 8

Tag and surrogate use presidio and the detector `hrsynth detector build` registered; with
none built they refuse, unless --detectors names what to use (the first line and the
manifest then say which types nothing looks for). On a cluster, pass --ner-model a folder
every node can read (the registry is the driver's cache).

Writes data/part-*.parquet (id, text, label, spans of what was replaced, method, error) into
--output and _manifest.json beside it (OUTPUT.hrsynth/, synth.io.layout); the key
(original → replacement) only into --key-output, when given. A rerun with the same input and options resumes after the shards written;
other input or options in the same --output are refused.
"""

import hashlib
import json
import sys
import time
from collections import Counter
from contextlib import nullcontext

from jobs.entry import main_for
from synth import RunFailed
from synth.config.deidentify_options import DeidentifyOptions
from synth.config.options import options_from

OPTIONS = DeidentifyOptions
# Options that change what is written; the others (where, how many actors) do not.
OUTPUT_OPTIONS = ("method", "detectors", "ner_model", "country", "seed", "shard_size")
OUTPUT_OPTIONS += ("text_field", "id_field", "label_field", "keep_ids", "clause_types")
# ... and, when a language model is used, these.
LLM_OPTIONS = ("model", "temperature", "max_new_tokens", "batch_size")


def run(options) -> dict:
    args = options_from(DeidentifyOptions, options)
    from jobs.on_ray.session import verbose_console

    with verbose_console(args.verbose):
        return _run(args)


def _run(args) -> dict:
    from synth.deid.corpus import scan_documents
    from synth.io.locations import resolved
    from synth.io.lock import output_lock

    started = time.time()
    if args.key_output:
        from synth.deid.writing import check_key_folder

        check_key_folder(resolved(args.key_output))
    fields = {"text": args.text_field, "id": args.id_field, "label": args.label_field}
    scan = scan_documents(args.input, fields, args.encoding, args.keep_ids)
    out = resolved(args.output)
    keys = args.key_output and resolved(args.key_output)
    settings = {name: getattr(args, name) for name in OUTPUT_OPTIONS}
    settings["detectors"] = args.detector_names()
    settings["ner_model"] = args.ner_model_path() if "ner" in settings["detectors"] else None
    if settings["ner_model"]:  # its encoder's precision changes what it finds
        settings["encoder_precision"] = args.encoder_precision
    for name in ("method_option", "explain", "step_option"):  # only when given: a run
        if getattr(args, name):  # without them keeps the settings, run id and manifest
            settings[name] = getattr(args, name)
    if args.step:
        settings["step"] = args.step_names()
    from synth.deid.analyzer.detectors import try_installed

    try_installed(settings["detectors"])  # a plugin's: one real text, before any work
    found = announce_detectors(args, settings)
    if args.uses_llm():
        from synth.deid.llm import check_model

        check_model(args.model, args.endpoint())
        settings |= {name: getattr(args, name) for name in LLM_OPTIONS}
    fingerprint = hashlib.sha256(
        (scan.fingerprint + json.dumps(settings, sort_keys=True)).encode()
    ).hexdigest()
    with output_lock(out, "deidentify"), output_lock(keys, "deidentify") if keys else nullcontext():
        return _write(args, scan, out, keys, settings, fingerprint, started, found)


def _write(
    args, scan, out: str, keys: str | None, settings: dict, fingerprint: str, started, found
):
    """The shards not yet written, then the manifest (the output's lock held). The input
    is read a second time, a shard at a time (synth.deid.corpus.document_batches): the
    driver holds the shards in flight, never the whole input."""
    from jobs.progress import Progress
    from synth.io.layout import MANIFEST, kept, sibling
    from synth.io.shards import open_output, shard_path
    from synth.io.storage import exists, filesystem, write_json

    run_info = open_output(out, {**settings, "documents": scan.documents}, fingerprint)
    size, count = args.shard_size, scan.documents
    sizes = {s: min(size, count - s * size) for s in range(-(-count // size))}
    done = _finished(out, scan.ids, sizes, size, run_info["run_id"], bool(args.step))
    if keys:  # a shard counts as done only with its key (written before it)
        fs, path = filesystem(keys)
        done = {shard for shard in done if exists(fs, shard_path(path, shard))}
    done -= shards_with_failures(out)  # a rerun gives failed documents another try
    todo = sum(rows for shard, rows in sizes.items() if shard not in done)
    print(
        f"{scan.documents} documents in {len(sizes)} shard{'s' * (len(sizes) != 1)}; "
        f"{len(done)} already written, {todo} to do"
    )
    progress, steps = Progress(max(todo, 1), every_s=30), Counter()

    def on_shard(shard: int, rows: int, spans: int, counts: str) -> None:
        steps.update(json.loads(counts))
        progress.shard_written(shard, rows, 0)

    if todo:
        from jobs.on_ray import deidentifying

        deidentifying.deidentify(
            blocks_to_do(args, done),
            {
                **settings,
                "endpoint": args.endpoint(),
                "device": args.device,
                **{name: getattr(args, name) for name in LLM_OPTIONS},
                "uses_llm": args.uses_llm(),
                "run_id": run_info["run_id"],
            },
            out,
            keys,
            args.num_actors,
            len(sizes) - len(done),
            on_shard,
        )
        progress.close()
    manifest = {
        "run_id": run_info["run_id"],
        "documents": scan.documents,
        **settings,
        # measured on planted examples (synth.deid.coverage); the language-model methods
        # look for everything, their detectors only scrub
        "types_not_looked_for": found["not_found"] if found else [],
        "types_found_in_part": found["in_part"] if found else [],
        "detector_coverage": found["shares"] if found else {},
        "spans_per_type": spans_per_type(out),
        "rows_with_error": rows_with_error(out),
        "key_written": bool(keys),
        # what each step did to this run's documents (synth.steps: `step: what`)
        "this_run": {
            "documents": todo,
            "wall_s": round(time.time() - started, 2),
            "steps": dict(sorted(steps.items())),
        },
    }
    write_json(kept(out, MANIFEST), manifest)
    print(f"spans replaced per type: {manifest['spans_per_type']}")
    print(
        f"output: {out} (its manifest beside it: {sibling(out)})"
        + (f"; key: {keys}" if keys else "; no key written")
    )
    check_failures(manifest["rows_with_error"], scan.documents, args.max_error_share)
    return manifest


def _finished(out: str, ids: list, sizes: dict, size: int, run_id: str, steps: bool) -> set:
    """The shards of this run already written whole (`steps`: a user's step may have
    left documents out of them, so each holds its planned ids or some of them)."""
    from synth.deid.corpus import DEID_SCHEMA
    from synth.io.shards import Subset, finished_shards

    planned = Subset if steps else list

    def planned_ids(s: int):
        return planned(ids[s * size : (s + 1) * size]) if s in sizes else None

    return finished_shards(out, planned_ids, run_id, DEID_SCHEMA)


def blocks_to_do(args, done: set[int]):
    """Each shard not yet written, read from the input as it is needed, with its number."""
    import pyarrow as pa

    from synth.deid.corpus import document_batches

    fields = {"text": args.text_field, "id": args.id_field, "label": args.label_field}
    batches = document_batches(args.input, fields, args.encoding, args.keep_ids, args.shard_size)
    for shard, batch in enumerate(batches):
        if shard not in done:
            yield batch.append_column("shard", pa.array([shard] * batch.num_rows, pa.int32()))


def check_failures(failed: int, documents: int, max_share: float) -> None:
    """Say how many documents failed; fail the run (exit 1, everything written kept) when
    more than --max-error-share did."""
    if not failed:
        return
    line = (
        f"{failed} of {documents} documents failed: written without text, the `error` "
        "column says why; a rerun with the same options retries them"
    )
    if failed / documents > max_share:
        raise RunFailed(f"{line} (more than --max-error-share {max_share:g})")
    print(f"warning: {line}", file=sys.stderr)


def shards_with_failures(out: str) -> set[int]:
    from synth.io.shards import shard_dataset, shard_number

    table = shard_dataset(out, ["error"], with_file=True)
    failed = table.filter(table.column("error").is_valid())
    return {shard_number(name) for name in set(failed.column("file").to_pylist())}


def announce_detectors(args, settings: dict) -> dict | None:
    """One line saying which detectors run and which types they do not find, or find in
    part, on planted examples (synth.deid.coverage, measured, not their recognizers'
    names), and how to get the trained one when absent. Returns the coverage."""
    from synth.deid.anonymizer.methods import replaces_spans

    if not replaces_spans(args.method):
        return None
    from synth.deid.coverage import coverage

    names = settings["detectors"]
    found = coverage(names, settings["ner_model"], getattr(args, "clause_types", "kind"))
    print(coverage_line(names, settings["ner_model"], found))
    return found


def coverage_line(names: list[str], ner_model: str | None, found: dict) -> str:
    line = f"detectors: {', '.join(names)}"
    if "ner" in names:
        line += f" (ner: {ner_model})"
    if not found["measured"]:
        return line + "; coverage not measured (the llm detector is asked for every type)"
    if found["not_found"]:
        line += f"; not found on planted examples: {', '.join(found['not_found'])}"
    if found["in_part"]:
        shares = found["shares"]
        line += "; found in part: " + ", ".join(f"{t} ({shares[t]:.0%})" for t in found["in_part"])
    if (found["not_found"] or found["in_part"]) and "ner" not in names:
        line += " (`make detector` builds one that finds more)"
    return line


def spans_per_type(out: str) -> dict:
    from synth.io.shards import shard_dataset

    counts = Counter()
    for spans in shard_dataset(out, ["spans"]).column("spans").to_pylist():
        counts.update(s["type"] for s in spans)
    return dict(sorted(counts.items()))


def rows_with_error(out: str) -> int:
    from synth.io.shards import shard_dataset

    errors = shard_dataset(out, ["error"]).column("error")
    return errors.length() - errors.null_count


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "deidentify", argv)


if __name__ == "__main__":
    sys.exit(main())
