"""Build hrsynth's personal-data detector: synthetic tickets → a BIO model, with a card.

    hrsynth detector build                      (make detector; out/detector, 1,600 tickets)
    hrsynth detector build --num-docs 400 --backend ct2 --output out/small-detector

1. Generates the training tickets (the generate job, --config; resumes when rerun) and
   the training CVs (--cv-config: attributes from public lists, no DP model).
2. Trains the BIO token-classification model on both (the evaluate job's bio_ner task,
   Ray Train): the tickets' variables, and in CVs the owner's name, employers, colleges,
   graduation years and cities (reported in CVs only); scored on the development tickets
   written the way people write.
3. Writes OUTPUT/model: the weights, the ticket-kind classifier that gates the clause
   types (`kinds.json`, synth.deid.analyzer.kinds, trained on the same tickets), the
   conduct-sentence classifier (`conduct.json`, synth.deid.analyzer.conduct), the sentence
   decision (`sentences.json`, synth.deid.analyzer.sentences), `detector.json`
   and a model card (README.md): what it was trained on, the ε of every DP model used,
   its scores, its limits.
4. Registers it (synth.deid.registry): `hrsynth deidentify` then uses presidio + this
   detector by default. --no-register keeps it out of the registry.

The detector never saw real data: only tickets and CVs generated from public lists and DP
models.
"""

import datetime as dt
import hashlib
import json
import shutil
import sys
from pathlib import Path

from jobs import evaluate, generate
from jobs.entry import guarded
from synth import ConfigError
from synth.config.deidentify_options import DetectorBuildOptions
from synth.config.evaluate_options import EvaluateOptions
from synth.config.generate_options import GenerateOptions
from synth.config.options import add_options, options_from
from synth.io.locations import resolved
from synth.io.lock import output_lock
from synth.io.storage import write_text

OPTIONS = DetectorBuildOptions
EVAL_DATA = Path(__file__).resolve().parents[1] / "eval" / "data"
# The sets the card scores the model on: ours, written the way people write (the first
# is what evaluate tests on while training) and the first release's dev tickets.
CARD_SETS = {"dev_people": EVAL_DATA / "dev_people.jsonl", "dev": EVAL_DATA / "dev_tickets.jsonl"}


def run(options) -> dict:
    args = options_from(DetectorBuildOptions, options)
    out = Path(resolved(args.output))
    model = out / "model"
    check_model_folder(model)  # before anything is generated or trained
    with output_lock(str(out), "detector build"):
        return _build(args, out, model)


def check_model_folder(model: Path) -> None:
    """OUTPUT/model is replaced by the new model only when it holds one this job built
    (its detector.json): anything else there is the user's, and is never deleted."""
    from synth.deid.registry import CARD_FILE

    if model.is_dir() and any(model.iterdir()) and not (model / CARD_FILE).is_file():
        raise ConfigError(
            f"--output: {model} holds files that are not a detector this job built (no "
            f"{CARD_FILE}); they are left alone: move them away or use another --output"
        )
    if model.exists() and not model.is_dir():
        raise ConfigError(f"--output: {model} is a file; move it away or use another --output")


def _build(args, out: Path, model: Path) -> dict:
    quiet_console()
    tickets = out / "tickets"
    manifest = generated(args, args.config, tickets, args.num_docs, dp_model=args.dp_model)
    cvs = generated_cvs(args, out)
    result = evaluate.run(
        EvaluateOptions(
            train=[str(tickets)] + ([str(cvs["folder"])] if cvs else []),
            test=str(CARD_SETS["dev_people"]),
            output=str(out / "eval"),
            tasks="bio_ner",
            base_model=args.base_model,
            epochs=args.epochs,
            seed=args.seed if args.seed is not None else 0,
        )
    )
    if model.exists():
        check_model_folder(model)  # still ours: nothing was put there meanwhile
        shutil.rmtree(model)
    shutil.copytree(out / "eval" / "models" / "bio_ner", model)
    write_kinds(tickets, model, args.seed or 0)
    write_conduct(tickets, model, args.seed or 0)
    write_sentences(tickets, model, args.seed or 0)
    card = model_card(model, manifest, result["tasks"]["bio_ner"], args, cvs)
    write_text(str(model / "detector.json"), json.dumps(card, indent=2, ensure_ascii=False))
    write_text(str(model / "README.md"), card_markdown(card))
    print(f"detector {card['version']}: {model}")
    for name, s in card["scores"].items():
        print(f"  {name}: BIO exact F1 {s['exact']['f1']:.3f}, partial F1 {s['partial']['f1']:.3f}")
    if not args.no_register:
        from synth.deid.registry import register

        print(f"registered: {register(model)} (hrsynth deidentify uses it by default)")
    return card


def generated_cvs(args, out: Path) -> dict | None:
    """The training CVs (--cv-config, public attributes: no DP model, no ε), generated
    into OUTPUT/cvs with the tickets' engine and seed; None for --num-cvs 0."""
    if args.num_cvs == 0:
        return None
    folder = out / "cvs"
    return {"folder": folder, "manifest": generated(args, args.cv_config, folder, args.num_cvs)}


# A document whose slot the generator left empty still holds its planted values, each
# labelled: it is training data, so the build's own generation never stops on slot errors
# (which CPU wrote the text must not decide whether a detector can be built).
ACCEPT_SLOT_ERRORS = 1.0


def generated(args, config: str, folder: Path, num_docs: int, **more) -> dict:
    """The generate job's manifest for `num_docs` of `config` in `folder`, with the
    build's seed and engine (resumes when rerun); rows with a slot error are kept."""
    manifest = generate.run(
        GenerateOptions(
            config=config,
            output=str(folder),
            num_docs=num_docs,
            seed=args.seed,
            backend=args.backend,
            max_error_share=ACCEPT_SLOT_ERRORS,
            **more,
        )
    )
    print(
        f"{folder.name}: {manifest['rows']} documents, {manifest['rows_with_error']} with a "
        f"slot left empty (kept: their planted values are labelled), "
        f"{manifest.get('rows_with_fallback', 0)} with a slot written from their attributes"
    )
    return manifest


def write_kinds(tickets: Path, model: Path, seed: int) -> None:
    """The ticket-kind classifier that gates the clause types (synth.deid.analyzer.kinds), trained
    on the same tickets, written beside the weights."""
    from synth.deid.analyzer.kinds import KINDS_FILE, train_kinds
    from synth.io.shards import shard_dataset

    rows = shard_dataset(str(tickets), ["text", "label"]).to_pylist()
    rows = [r for r in rows if r["text"].strip()]
    if len({r["label"] for r in rows}) < 2:
        return  # one kind: nothing to tell apart, no gate
    trained = train_kinds([r["text"] for r in rows], [r["label"] for r in rows], seed)
    write_text(str(model / KINDS_FILE), json.dumps(trained))


def write_conduct(tickets: Path, model: Path, seed: int) -> None:
    """The conduct-sentence classifier that finds complaints the BIO model missed
    (synth.deid.analyzer.conduct), trained on the same tickets' sentences, beside the weights."""
    from synth.deid.analyzer.conduct import CONDUCT_FILE, train_conduct
    from synth.io.shards import shard_dataset

    rows = shard_dataset(str(tickets), ["text", "entities"]).to_pylist()
    trained = train_conduct([r for r in rows if r["text"].strip()], seed)
    if trained is not None:
        write_text(str(model / CONDUCT_FILE), json.dumps(trained))


def write_sentences(tickets: Path, model: Path, seed: int) -> None:
    """The sentence decision (synth.deid.analyzer.sentences: does a sentence report conduct,
    health, a life event or a reason for a change?), trained on the same tickets'
    sentences, beside the weights."""
    from synth.deid.analyzer.sentences import SENTENCES_FILE, train_sentences
    from synth.io.shards import shard_dataset

    rows = shard_dataset(str(tickets), ["text", "entities"]).to_pylist()
    trained = train_sentences([r for r in rows if r["text"].strip()], seed)
    if trained is not None:
        write_text(str(model / SENTENCES_FILE), json.dumps(trained))


def quiet_console() -> None:
    """The console carries the build's own progress lines. What the Ray workers print
    (Ray Train's controller and its placement-group cleaner's traces, transformers' load
    reports, warnings) goes to Ray's log folder, as for generate; here, transformers'
    progress bars and Ray's warnings are off. HRSYNTH_RAY_LOGS=1 shows them all."""
    import warnings

    from jobs.on_ray.session import connect, ray_logs_wanted

    if ray_logs_wanted():
        return
    import transformers

    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    warnings.filterwarnings("ignore", category=UserWarning, module=r"ray(\.|$)")
    connect(log_to_driver=False)  # the jobs it runs join this session


def model_card(model: Path, manifest: dict, trained: dict, args, cvs: dict | None = None) -> dict:
    from eval.detector_scores import bio_scores
    from eval.testset import load_testset
    from synth.deid.analyzer.kinds import load_kinds
    from synth.deid.types import personal_types
    from synth.kinds.tickets import evaluation_labels

    labels, entity_labels = evaluation_labels()
    classifier = load_kinds(model)
    scores, kinds_read = {}, {}
    for name, path in CARD_SETS.items():
        docs = load_testset(str(path), labels, set(entity_labels)).docs
        scores[name] = bio_scores(str(model), docs)
        if classifier is None:
            continue
        sure = classifier.sure_kinds([d.text for d in docs])
        kinds_read[name] = {
            "sure": round(sum(k is not None for k in sure) / len(docs), 3),
            "right_when_sure": round(
                sum(k == d.label for k, d in zip(sure, docs))
                / max(1, sum(k is not None for k in sure)),
                3,
            ),
        }
    weights = hashlib.sha256((model / "model.safetensors").read_bytes()).hexdigest()
    return {
        "version": f"hrsynth-detector-{dt.date.today():%Y%m%d}-{weights[:8]}",
        "base_model": args.base_model,
        "tags": json.loads((model / "config.json").read_text())["id2label"],
        "trained_on": {
            "config": args.config,
            "tickets": manifest["rows"],
            "with_slot_error": manifest["rows_with_error"],
            "run_id": manifest["run_id"],
            "seed": manifest["seed"],
            "model": manifest["model"],
            "backend": manifest.get("backend"),
            "epsilon_ledgers": {
                name: {"spent": ledger["spent"], "budget": ledger["budget"]}
                for name, ledger in manifest["epsilon_ledgers"].items()
            },
        },
        # the CVs it learnt a CV's personal data from (public attributes: no ε)
        "cvs": {
            "config": args.cv_config,
            "cvs": cvs["manifest"]["rows"],
            "with_slot_error": cvs["manifest"]["rows_with_error"],
            "with_fallback": cvs["manifest"].get("rows_with_fallback", 0),
            "run_id": cvs["manifest"]["run_id"],
            "entities": sorted(personal_types().cv_variables),
        }
        if cvs
        else None,
        "training": {"epochs": args.epochs, "seconds": round(trained["training"]["train_s"], 1)},
        # the kind classifier gating clause types: how often it is sure, and right then
        "kinds": kinds_read or None,
        "scores": {
            name: {k: s[k] for k in ("documents", "exact", "partial", "per_type_exact")}
            for name, s in scores.items()
        },
        "limits": LIMITS,
    }


LIMITS = [
    (
        "Trained only on synthetic English HR tickets and CVs: other document kinds "
        "(e-mails about other topics) and other languages are outside what it has seen."
    ),
    (
        "Its types are the ticket taxonomy's variables and, in CVs only, the owner's name, "
        "employers, colleges, graduation years and cities (mapped to personal-data types "
        "for de-identification); e-mails, phones and IDs come from Presidio beside it."
    ),
    (
        "Scores on our own development sets flatter it: they were written knowing the "
        "taxonomy. Measure on your own labelled tickets before relying on it."
    ),
]


def card_markdown(card: dict) -> str:
    trained = card["trained_on"]
    lines = [
        f"# {card['version']}",
        "",
        (
            "A personal-data detector for HR tickets: a BIO token-classification model "
            f"({card['base_model']}) fine-tuned by `hrsynth detector build` on "
            f"{trained['tickets']} synthetic tickets"
            + (f" and {card['cvs']['cvs']} synthetic CVs" if card.get("cvs") else "")
            + ". It never saw real data."
        ),
        "",
        "## Trained on",
        (
            f"- config `{trained['config']}`, run {trained['run_id']}, seed "
            f"{trained['seed']}, written by {trained['model']} ({trained['backend']})"
        ),
    ]
    for name, ledger in trained["epsilon_ledgers"].items():
        lines.append(f"- DP model {name}: ε {ledger['spent']:g} spent of {ledger['budget']:g}")
    lines += ["", "## Scores (BIO, taxonomy variables)", "", "| set | exact F1 | partial F1 |"]
    lines.append("|---|---|---|")
    for name, s in card["scores"].items():
        lines.append(
            f"| {name} ({s['documents']}) | {s['exact']['f1']:.3f} | {s['partial']['f1']:.3f} |"
        )
    lines += ["", "## Limits", *[f"- {limit}" for limit in card["limits"]], ""]
    return "\n".join(lines)


ACTIONS = {"build": run}


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="hrsynth detector", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="action", required=True)
    add_options(sub.add_parser("build", help="generate tickets, train, card, register"), OPTIONS)
    args = parser.parse_args(argv)
    return guarded(ACTIONS[args.action], args)


if __name__ == "__main__":
    sys.exit(main())
