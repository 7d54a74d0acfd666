"""The personal-data detector measured: BIO scores and de-identification with the
default detectors, on every set we have.

Privacy is over every gold span (every ticket variable and every `personal` span), as
the human-written set it is checked on counts it; `verbatim` counts, per gold label, the
spans the shared output still holds word for word (the privacy score's test).

Sets (the kind of every number is named in the results):
- dev_people: eval/data/dev_people.jsonl, 80 tickets written by us the way people write
  (10 per label), marked per docs/annotation.md before any detector saw them.
- dev: eval/data/dev_tickets.jsonl, the first release's 40 dev tickets (ours).
- dev_cvs: eval/data/dev_cvs.jsonl, 12 CVs (ours): de-identification only (their labels
  are not the ticket taxonomy's).
- synthetic: held-out generated tickets (--synthetic, another seed than training):
  gold = the planted spans. Written from the same generator: it flatters the detector.

For each ticket set: BIO exact and partial F1, overall and per type (the Ticket Generator thesis's
metric). For each set: `deidentify --method surrogate` with the old default (presidio)
and the new one (presidio + the detector): the privacy score (mean) and the share of
the other words kept.

    python -m benchmarks.deid.detector --model out/detector/model --step "clauses and forms" \\
        [--synthetic out/detector-heldout] [--max-synthetic 400]

Adds the step to benchmarks/results/detector.json (steps measured earlier are kept).
"""

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path

from benchmarks.report import RESULTS_DIR, ROOT, print_table, write_results
from eval.deid import other_words_kept, privacy_summary
from eval.detector_scores import bio_scores
from eval.reading import (
    Fluency,
    greetings_replaced,
    impossible_dates,
    off_gold,
    sentence_fluency,
    type_fit,
)
from eval.testset import TestDoc, load_testset
from synth.deid.analyzer.hygiene import OPTIONAL_STEPS, STEPS
from synth.deid.analyzer.rules import RULES as DECISION_RULES
from synth.deid.gold import annotated_spans, planted_spans
from synth.io.shards import shard_dataset
from synth.kinds.tickets import evaluation_labels

RESULTS = RESULTS_DIR / "detector.json"
DATA = ROOT / "eval" / "data"
SHARED = ROOT.parent / "shared"
STYLE_CORPORA = DATA / "real_writing"  # the annotated texts, copied with their licences
# Our annotation of real writing (offsets and a hash per text of STYLE_CORPORA).
REAL_WRITING = DATA / "real_writing.annotations.jsonl"
TICKET_SETS = {"dev_people": DATA / "dev_people.jsonl", "dev": DATA / "dev_tickets.jsonl"}
# How dev_people+typing is typed: above the sloppiest people we measured (Enron HR mail:
# 0.008 typos per long word, 0.12 of punctuation run together, 0.029 of spaces broken).
TYPING = {"slip_rate": 0.05, "run_together": 0.15, "line_breaks": 0.03}
# Sets whose de-identification is measured with each output step left out too.
# (the real-writing set: the steps of the complaint ticket only, each pass reads 103 texts)
STEP_SETS = {
    "dev_people": STEPS,
    "dev": STEPS,
    "real_writing": ("complaints", "role_phrases", "kinds"),
}
# Sets whose de-identification is measured with each type decision left out too.
RULE_SETS = ("dev_people", "real_writing", "dev_cvs", "resumes_annotated")
BIO_KEYS = ("exact", "partial", "raw_model", "per_type_exact", "errors", "spans", "without_step")
PERSONA_TYPES = ("PERSON", "EMAIL", "URL", "ORGANIZATION", "NRP")
# Sets whose de-identification is measured at each bar of the sentence decision.
SENTENCE_SETS = ("dev_people", "dev", "real_writing")
SENTENCE_BARS = (0.5, 0.6, 0.7, 0.8, 0.9)


def hand_labelled(path: Path, entity_labels: set[str] | None = None) -> dict:
    """A set of ours, read and checked as `--test` reads it."""
    docs = load_testset(str(path), None, entity_labels).docs
    return {
        "docs": docs,
        "gold": [annotated_spans(d.entities, d.personal) for d in docs],
        "labelled": [list(d.entities) + list(d.personal) for d in docs],
    }


def synthetic(folder: str, limit: int) -> dict:
    rows = shard_dataset(folder, ["id", "text", "label", "entities", "persona"])
    rows = [r for r in rows.sort_by("id").to_pylist() if r["text"].strip()][:limit]
    gold = [planted_spans(r["text"], r["entities"], r["persona"]) for r in rows]
    return {
        "docs": [
            TestDoc(
                r["text"],
                r["label"],
                tuple((e["start"], e["end"], e["label"]) for e in r["entities"]),
            )
            for r in rows
        ],
        "gold": gold,
        "labelled": [
            [(e["start"], e["end"], e["label"]) for e in r["entities"]]
            + [(g.start, g.end, g.type) for g in spans if g.type in PERSONA_TYPES]
            for r, spans in zip(rows, gold)
        ],
    }


def typed(s: dict, seed: int = 0) -> dict:
    """The same tickets typed as the sloppiest people type (TYPING: typos outside the
    values, no space after punctuation, line breaks in sentences), spans moved to match:
    what the detector predicts on the extra odd words is the spurious-span test."""
    import numpy as np

    from synth.generation.slips import add_slips, typed_spacing

    docs, labelled = [], []
    for i, d in enumerate(s["docs"]):
        rng = np.random.default_rng([seed, i])
        spans = [{"start": a, "end": b, "label": lab} for a, b, lab in d.entities]
        spans += [{"start": a, "end": b, "label": t, "personal": True} for a, b, t in d.personal]
        spans.sort(key=lambda x: x["start"])
        text, spans = add_slips(d.text, spans, TYPING["slip_rate"], rng)
        text, spans = typed_spacing(text, spans, TYPING["run_together"], TYPING["line_breaks"], rng)
        entities = tuple((x["start"], x["end"], x["label"]) for x in spans if "personal" not in x)
        personal = tuple((x["start"], x["end"], x["label"]) for x in spans if "personal" in x)
        docs.append(TestDoc(text, d.label, entities, personal))
        labelled.append(list(entities) + list(personal))
    gold = [annotated_spans(d.entities, d.personal) for d in docs]
    return {"docs": docs, "gold": gold, "labelled": labelled}


def deidentified(
    texts: list[str], found: list[list[list]], seed: int = 0, kinds=None, rules=DECISION_RULES
) -> tuple[list[str], list[list], list]:
    """(outputs, spans, results): `--method surrogate` over the detectors' spans (found
    in the normalised texts), merged as the job merges them (`rules`: the type decisions
    used), drawn to keep the kind when `kinds` is given; `results` the Replaced rows (their
    keys and the spans as written in the outputs)."""
    from synth.deid.anonymizer.operators import surrogated

    spans = merged_found(texts, found, rules)
    ids = [str(i) for i in range(len(texts))]
    done = surrogated(ids, texts, spans, seed, kinds=kinds)
    return [r.text for r in done], spans, done


def survival(texts: list[str], labelled: list[list], outputs: list[str]) -> dict:
    """Per gold label: how many of its spans the output still holds verbatim (the privacy
    score's test: case and spacing aside)."""
    from synth.deid.privacy import normalised

    counts = {}
    for text, spans, output in zip(texts, labelled, outputs):
        found = normalised(output)
        for start, end, label in spans:
            value = normalised(text[start:end])
            if not value:
                continue
            kept, total = counts.get(label, (0, 0))
            counts[label] = (kept + (value in found), total + 1)
    return {label: {"verbatim": k, "of": n} for label, (k, n) in sorted(counts.items())}


def deid_scores(texts, s, found, kinds=None, rules=DECISION_RULES, fluency=None) -> dict:
    outputs, spans, done = deidentified(texts, found, kinds=kinds, rules=rules)
    written = {"keys": [r.key for r in done], "spans": [r.spans for r in done]}
    return output_scores(texts, s, outputs, spans, kinds, fluency, written)


def output_scores(texts, s, outputs, spans, kinds=None, fluency=None, written=None) -> dict:
    """What the shareable `outputs` hide and how they read, given the `spans` replaced;
    `written`: their keys and the spans as written in the outputs (the dates and the
    sentences replaced are read there)."""
    private = [[t[g.start : g.end] for g in gold] for t, gold in zip(texts, s["gold"])]
    privacy = privacy_summary([str(i) for i in range(len(texts))], private, outputs)
    out = {
        "privacy": round(privacy["mean"], 4),
        "other_words_kept": round(other_words_kept(texts, s["gold"], outputs), 4),
        "verbatim": survival(texts, s["labelled"], outputs),
        "predicted_spans": sum(len(x) for x in spans),
        "gold_spans": sum(len(g) for g in s["gold"]),
        "type_fit": type_fit(s["gold"], spans),
        "off_gold": off_gold(s["gold"], spans),
        "greetings": greetings_replaced(texts, outputs),
        "recall_per_type": recall_per_type(s["labelled"], spans),
    }
    if kinds is not None:
        out["kind_kept"] = kind_kept(kinds, texts, outputs)
    if "owners" in s:
        out["owners"] = owners_surviving(s["owners"], outputs)
    if fluency is not None:
        out["fluency"] = fluency.change(texts, outputs)
    if written is not None:
        out["impossible_dates"] = impossible_dates(written["keys"])
        if fluency is not None:
            out["sentence_fluency"] = sentence_fluency(
                fluency, texts, outputs, spans, written["spans"]
            )
    return out


def recall_per_type(labelled: list[list], spans: list[list]) -> dict:
    """Per gold label: the share of its spans a replaced span overlaps (the descriptive
    types' recall is the question of issue 83: is the clause found where it stands)."""
    counts = {}
    for gold, found in zip(labelled, spans):
        for start, end, label in gold:
            hit = any(p.start < end and start < p.end for p in found)
            k, n = counts.get(label, (0, 0))
            counts[label] = (k + hit, n + 1)
    return {label: {"recall": round(k / n, 4), "of": n} for label, (k, n) in sorted(counts.items())}


def merged_found(texts, found, rules=DECISION_RULES) -> list:
    from synth.deid.analyzer.analyze import merged

    return merged(texts, [[x for f in found for x in f[i]] for i in range(len(texts))], rules)


def kind_kept(kinds, texts: list[str], outputs: list[str]) -> float:
    """Share of documents the detector's kind classifier reads as the same kind before
    and after de-identification (its most likely kind: a shareable ticket must keep its
    kind to stay useful for training)."""
    before = kinds.probabilities(texts).argmax(axis=1)
    after = kinds.probabilities(outputs).argmax(axis=1)
    return round(float((before == after).mean()), 4)


CLAUSE_TYPES = ("CONDUCT", "CIRCUMSTANCE", "HEALTH", "LIFE_EVENT")


def resume_scores(texts: list[str], by_presidio: list, by_ner: list, kinds) -> dict:
    """On resumes without gold: the clause-type spans the detector reports (a resume holds
    no complaint: each is a false alarm that costs words) and the share of all words the
    shareable text keeps (`--method surrogate`, the default detectors)."""
    spans = [[x for x in found if x.type in CLAUSE_TYPES] for found in by_ner]
    outputs, replaced, _ = deidentified(texts, [by_presidio, by_ner], kinds=kinds)
    return {
        "documents": len(texts),
        "clause_spans": sum(len(x) for x in spans),
        "documents_with_one": sum(bool(x) for x in spans),
        "words_kept": round(other_words_kept(texts, [[] for _ in texts], outputs), 4),
        "replaced_per_type": dict(Counter(x.type for doc in replaced for x in doc).most_common()),
    }


def measure(
    model: str,
    sets: dict,
    step_sets=STEP_SETS,
    fluency=None,
    ablations=True,
    precision: str = "float32",
) -> dict:
    from synth.deid.analyzer.detectors import make_detectors
    from synth.deid.analyzer.normalise import normalise

    presidio = make_detectors(["presidio"])[0]
    ner = make_detectors(["ner"], model, precision=precision)[0]
    out = {}
    for name, s in sets.items():
        texts = [d.text for d in s["docs"]]
        read = [normalise(t).text for t in texts]  # what the job's detectors read
        entry = {"documents": len(texts)}
        if s.get("unlabelled"):  # resumes without gold: clause false alarms, words kept
            scores = resume_scores(
                texts, presidio.detect(read), ner.detect(read), ner.detector.kinds
            )
            out[name] = {**entry, "clause_spans": scores}
            print(f"{name}: done", flush=True)
            continue
        if s.get("bio", True):
            scores = bio_scores(model, s["docs"], precision)
            entry["bio"] = {k: scores[k] for k in BIO_KEYS}
        by_presidio = presidio.detect(read)
        ner.detector.steps = STEPS
        by_ner = ner.detect(read)
        entry["deid_surrogate"] = {
            "presidio (old default)": deid_scores(texts, s, [by_presidio]),
            "presidio+detector": deid_scores(
                texts, s, [by_presidio, by_ner], ner.detector.kinds, fluency=fluency
            ),
        }
        if ablations and name in SENTENCE_SETS and ner.detector.sentences is not None:
            entry["deid_sentence_bar"] = sentence_bars(texts, read, s, by_presidio, ner)
        if (
            ablations and name in RULE_SETS
        ):  # what each type decision does (synth.deid.analyzer.rules)
            entry["deid_without_rule"] = {
                rule: deid_scores(
                    texts,
                    s,
                    [by_presidio, by_ner],
                    ner.detector.kinds,
                    tuple(r for r in DECISION_RULES if r != rule),
                )
                for rule in DECISION_RULES
            }
        if name in step_sets:  # what each output step does to what is shared
            entry["deid_without_step"] = {}
            for step in step_sets[name]:
                ner.detector.steps = tuple(x for x in STEPS if x != step)
                found = [by_presidio, ner.detect(read)]
                entry["deid_without_step"][step] = deid_scores(texts, s, found, ner.detector.kinds)
            ner.detector.steps = STEPS
            entry["deid_with_step"] = {}  # the steps measured, not on by default
            for step in OPTIONAL_STEPS:
                ner.detector.steps = (*STEPS, step)
                found = [by_presidio, ner.detect(read)]
                entry["deid_with_step"][step] = deid_scores(texts, s, found, ner.detector.kinds)
            ner.detector.steps = STEPS
        out[name] = entry
        print(f"{name}: done", flush=True)
    return out


def sentence_bars(texts, read, s, by_presidio, ner) -> dict:
    """De-identification with the sentence decision at each bar (SENTENCE_BARS; `off`:
    without it), on the BIO model's spans of whole documents."""
    from synth.deid.analyzer.described import described_spans

    bar = ner.detector.sentence_bar
    ner.detector.sentence_bar = None
    try:
        alone = ner.detect(read)
    finally:
        ner.detector.sentence_bar = bar
    out = {"off": deid_scores(texts, s, [by_presidio, alone], ner.detector.kinds)}
    for b in SENTENCE_BARS:
        more = described_spans(read, alone, ner.detector.sentences, b)
        found = [x + y for x, y in zip(alone, more)]
        out[str(b)] = deid_scores(texts, s, [by_presidio, found], ner.detector.kinds)
    return out


def print_results(step: str, sets: dict) -> None:
    print(f"\n{step}")
    rows = []
    for name, e in sets.items():
        if "deid_surrogate" not in e:  # unlabelled resumes
            print(f"{name}: {e['clause_spans']}")
            continue
        bio = e.get("bio") or {}
        old, new = e["deid_surrogate"].values()
        rows.append(
            {
                "set": name,
                "exact": bio.get("exact", {}).get("f1"),
                "partial": bio.get("partial", {}).get("f1"),
                "old": old["privacy"],
                "new": new["privacy"],
                "kept": new["other_words_kept"],
                "kind": new.get("kind_kept"),
                "spans": f"{new['predicted_spans']}/{new['gold_spans']}",
            }
        )
    columns = [("set", "set", ""), ("exact", "BIO exact", ".3f"), ("partial", "partial", ".3f")]
    columns += [("old", "privacy presidio", ".3f"), ("new", "privacy +detector", ".3f")]
    columns += [("kept", "other words kept", ".3f"), ("kind", "kind kept", ".3f")]
    print_table(rows, [*columns, ("spans", "predicted/gold", "")])
    for name, e in sets.items():
        if "deid_surrogate" not in e:
            continue
        verbatim = e["deid_surrogate"]["presidio+detector"]["verbatim"]
        left = ", ".join(f"{k} {v['verbatim']}/{v['of']}" for k, v in verbatim.items())
        print(f"{name}: verbatim in the output: {left}")
        for left_out, d in e.get("deid_without_step", {}).items():
            print(
                f"  without {left_out}: privacy {d['privacy']:.3f}, kept {d['other_words_kept']:.3f}"
            )
        for added, d in e.get("deid_with_step", {}).items():
            print(f"  with {added}: privacy {d['privacy']:.3f}, kept {d['other_words_kept']:.3f}")


def seed_spread(results: dict, prefix: str) -> dict:
    """Mean, min and max over the steps whose name starts with `prefix` (one per seed) of
    each set's headline numbers."""
    steps = {k: v for k, v in results["steps"].items() if k.startswith(prefix)}
    if not steps:
        raise SystemExit(f"--spread: no measured step starts with {prefix!r}")

    def headline(entry: dict) -> dict:
        new = entry["deid_surrogate"]["presidio+detector"]
        out = {"privacy": new["privacy"], "other_words_kept": new["other_words_kept"]}
        if "bio" in entry:
            out |= {"exact": entry["bio"]["exact"]["f1"], "partial": entry["bio"]["partial"]["f1"]}
            out |= {"predicted_spans": entry["bio"]["spans"]["predicted"]}
        return out

    spread = {"steps": sorted(steps), "sets": {}}
    for name in next(iter(steps.values()))["sets"]:
        values = [headline(step["sets"][name]) for step in steps.values()]
        spread["sets"][name] = {
            key: {
                "mean": round(sum(v[key] for v in values) / len(values), 4),
                "min": min(v[key] for v in values),
                "max": max(v[key] for v in values),
            }
            for key in values[0]
        }
    return spread


def print_spread(spread: dict) -> None:
    rows = [
        {
            "set": name,
            **{k: f"{v['mean']:.3f} ({v['min']:.3f}–{v['max']:.3f})" for k, v in d.items()},
        }
        for name, d in spread["sets"].items()
    ]
    keys = ["exact", "partial", "privacy", "other_words_kept", "predicted_spans"]
    print_table(rows, [("set", "set", "")] + [(k, k, "") for k in keys])


def real_writing(path: Path = REAL_WRITING) -> dict | None:
    """Our annotation (docs/annotation.md) of real people's writing from the public style
    corpora: the texts copied into eval/data/real_writing/ with their licences, each
    annotation checked against the text's hash. None where the corpora are absent."""
    import hashlib

    docs, gold, labelled = [], [], []
    texts = {}
    for row in map(json.loads, path.read_text().splitlines()):
        corpus = STYLE_CORPORA / row["corpus"]
        if not corpus.is_file():
            return None
        if row["corpus"] not in texts:
            texts[row["corpus"]] = {
                d["id"]: d["text"] for d in map(json.loads, corpus.read_text().splitlines())
            }
        text = texts[row["corpus"]][row["id"]]
        if hashlib.sha256(text.encode()).hexdigest()[:16] != row["sha256"]:
            raise SystemExit(f"{path}: {row['id']} is not the text it was annotated on")
        personal = tuple((a, b, t) for a, b, t in row["spans"])
        docs.append(TestDoc(text, row["corpus"].split("_")[0], (), personal))
        gold.append(annotated_spans((), personal))
        labelled.append(list(personal))
    return {"docs": docs, "gold": gold, "labelled": labelled, "bio": False}


def public_resumes() -> dict:
    """30 real resumes published under the MIT licence, our annotation (docs/annotation.md,
    "Public resumes annotated"); each owner's name is the first person it marks."""
    s = {**hand_labelled(DATA / "resumes_public" / "resumes.jsonl"), "bio": False}
    s["owners"] = [next(d.text[a:b] for a, b, t in d.personal if t == "PERSON") for d in s["docs"]]
    return s


def owners_surviving(owners: list[str], outputs: list[str]) -> dict:
    """How many owners' names the outputs still hold: whole, or any part of two letters
    or more (a first or last name alone still names them to a colleague)."""
    from synth.deid.privacy import normalised

    whole = parts = 0
    for owner, output in zip(owners, outputs):
        found = normalised(output)
        whole += normalised(owner) in found
        words = [w for w in re.findall(r"[\w'’-]+", owner) if len(w) > 1]
        parts += any(re.search(rf"(?<!\w){re.escape(w.lower())}(?!\w)", found) for w in words)
    return {"resumes": len(owners), "whole": whole, "any_part": parts}


def resumes(limit: int) -> dict | None:
    """The first `limit` resumes of the public CV development corpus (unlabelled)."""
    import csv

    path = SHARED / "data" / "cv_dev" / "UpdatedResumeDataSet.csv"
    if not path.is_file():
        return None
    with path.open(encoding="utf-8", errors="replace") as f:
        rows = [r["Resume"] for r in csv.DictReader(f)]
    unique = list(dict.fromkeys(rows))[:limit]
    return {"docs": [TestDoc(t, "cv", ()) for t in unique], "unlabelled": True}


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--spread", help="summarise the steps starting with this (seeds) and stop")
    p.add_argument("--model", help="a built detector (or evaluate's bio_ner)")
    p.add_argument("--step", help="what this detector is (the results key)")
    p.add_argument("--synthetic", help="held-out generated tickets (not trained on)")
    p.add_argument("--max-synthetic", type=int, default=400)
    p.add_argument("--resumes", type=int, default=100, help="resumes of ../shared's cv_dev")
    p.add_argument(
        "--steps", action="store_true", help="also leave each output step out (slow; round 3)"
    )
    p.add_argument("--no-fluency", action="store_true", help="skip SmolLM2's token loss")
    p.add_argument(
        "--no-ablations",
        action="store_true",
        help="skip each rule left out and the sentence bars (the headline numbers alone)",
    )
    p.add_argument("--only", help="measure these sets alone (comma-separated; a trial run)")
    p.add_argument(
        "--precision",
        default="float32",
        help="the detector's encoder (synth.precision): float32, bfloat16, auto",
    )
    p.add_argument(
        "--previous", help="outputs of benchmarks/deid/previous_release.py to score the same way"
    )
    p.add_argument(
        "--previous-key",
        default="previous_release_issue_71",
        help="where in detector.json the --previous scores go",
    )
    args = p.parse_args(argv)
    if args.spread:
        results = json.loads(RESULTS.read_text())
        results["spread"] = {args.spread: seed_spread(results, args.spread)}
        write_results(RESULTS.name, results, indent=2)
        print_spread(results["spread"][args.spread])
        return results
    if not (args.model and args.step):
        p.error("--model and --step are needed (or --spread)")
    _, entity_labels = evaluation_labels()
    sets = {name: hand_labelled(path, set(entity_labels)) for name, path in TICKET_SETS.items()}
    sets["dev_people+typing"] = typed(sets["dev_people"])
    sets["dev_cvs"] = {**hand_labelled(DATA / "dev_cvs.jsonl"), "bio": False}
    if (real := real_writing()) is not None:
        sets["real_writing"] = real
    sets["resumes_annotated"] = public_resumes()
    sets["resumes_flat"] = {**hand_labelled(DATA / "resumes_flat" / "resumes.jsonl"), "bio": False}
    if (cvs := resumes(args.resumes)) is not None:
        sets["cv_dev_resumes"] = cvs
    if args.synthetic:
        sets["synthetic"] = synthetic(args.synthetic, args.max_synthetic)
    if args.only:
        sets = {k: v for k, v in sets.items() if k in args.only.split(",")}
    started = time.time()
    fluency = None if args.no_fluency else Fluency()
    measured = measure(
        args.model,
        sets,
        STEP_SETS if args.steps else {},
        fluency,
        not args.no_ablations,
        args.precision,
    )
    card = Path(args.model, "detector.json")
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"steps": {}}
    results["steps"][args.step] = {
        "model": json.loads(card.read_text())["version"] if card.exists() else args.model,
        "trained_on": json.loads(card.read_text())["trained_on"] if card.exists() else None,
        "kinds": {
            "dev_people": "ours, written the way people write",
            "dev": "ours (first release)",
            "dev_people+typing": "ours, typos and spacing added (TYPING)",
            "dev_cvs": "ours (CVs)",
            "real_writing": "real people's writing (CFPB complaints, Enron HR mail), our annotation",
            "cv_dev_resumes": "real resumes (../shared cv_dev), unlabelled: clause false alarms",
            "resumes_annotated": "30 real public resumes (MIT, eval/data/resumes_public), our annotation",
            "resumes_flat": "12 job-board-shaped resumes we wrote (eval/data/resumes_flat), states not marked",
            "synthetic": "generated, held out (flatters the detector)",
        },
        "sets": measured,
        "encoder_precision": args.precision,
        "wall_s": round(time.time() - started, 1),
    }
    if args.previous:  # the previous release's outputs, scored as this release's are
        results[args.previous_key] = previous_scored(args.previous, sets, fluency)
    write_results(RESULTS.name, results, indent=2)
    print_results(args.step, measured)
    return results


def previous_scored(path: str, sets: dict, fluency) -> dict:
    """The previous release's outputs and replaced spans per set (written by
    benchmarks/deid/previous_release.py --outputs), scored by output_scores."""
    from synth.deid.spans import Span

    dump = json.loads(Path(path).read_text())
    out = {"what": dump.pop("what", None), "sets": {}}
    for name, d in dump.items():
        if name not in sets or "gold" not in sets[name]:
            continue
        texts = [doc.text for doc in sets[name]["docs"]]
        if texts != d["texts"]:
            raise SystemExit(f"--previous: set {name} holds other texts than this run's")
        spans = [[Span(a, b, t, "previous") for a, b, t in doc] for doc in d["spans"]]
        written = None
        if "keys" in d:  # dumps since issue 93 carry the keys and the spans as written
            new = [[Span(a, b, t, "previous") for a, b, t in doc] for doc in d["written"]]
            written = {"keys": d["keys"], "spans": new}
        out["sets"][name] = output_scores(
            texts, sets[name], d["outputs"], spans, None, fluency, written
        )
        print(f"previous release, {name}: done", flush=True)
    return out


if __name__ == "__main__":
    main()
