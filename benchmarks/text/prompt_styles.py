"""Which prompt style and temperature to use for the embedded model, by measurement.

For each (style, temperature) the same planned tickets are generated, and only the
model-written slot text is scored: on-topic rate (share of tickets whose generated text
uses at least one of the label's topic words, from the taxonomy files), share of empty
slots, type-token ratio of unigrams/bigrams, and words generated per ticket.

    python -m benchmarks.text.prompt_styles [--num-docs 32]

Writes benchmarks/results/prompt_styles.json.
"""

import argparse
import re

from benchmarks.report import RESULTS_DIR, write_results
from eval.metrics import type_token_ratio
from synth.config.generate import load_config
from synth.generation.hf_engine import HFEngine
from synth.generation.params import params_from
from synth.generation.rollout import Draft, fill_slots
from synth.kinds import plan_documents
from synth.kinds.tickets.taxonomy import load_taxonomy

RESULTS = RESULTS_DIR / "prompt_styles.json"
SETTINGS = [("plain", 1.0), ("plain", 0.5), ("chat", 1.0), ("chat", 0.5)]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def score(docs, drafts, taxonomy) -> dict:
    on_topic, empty, ttr1, ttr2, lengths = 0, 0, [], [], []
    for doc, d in zip(docs, drafts):
        generated = " ".join(d.slots)
        w = words(generated)
        topic = taxonomy[doc.label].topic_words
        on_topic += any(re.search(rf"\b{re.escape(t)}", generated.lower()) for t in topic)
        empty += sum(not s for s in d.slots)
        ttr1.append(type_token_ratio(w, 1))
        ttr2.append(type_token_ratio(w, 2))
        lengths.append(len(w))
    n = len(docs)
    return {
        "on_topic_rate": round(on_topic / n, 3),
        "empty_slot_share": round(empty / sum(len(d.slots) for d in drafts), 3),
        "ttr_unigram": round(sum(ttr1) / n, 3),
        "ttr_bigram": round(sum(ttr2) / n, 3),
        "generated_words_per_ticket": round(sum(lengths) / n, 1),
    }


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--num-docs", type=int, default=32)
    p.add_argument("--dp-model", default="out/absence_model.json")
    args = p.parse_args(argv)
    cfg = load_config(
        "configs/tickets_classic.yaml",
        {"num_docs": args.num_docs, "dp_model": args.dp_model, "reference_date": "2026-11-22"},
    )
    docs, _ = plan_documents(cfg, "styles")
    taxonomy = load_taxonomy()
    generator = HFEngine(cfg.generator.model)
    results = []
    for style, temperature in SETTINGS:
        params = params_from("default", {"temperature": temperature})
        drafts = [Draft(j.header, list(j.pieces), j.instruction, style) for j in docs]
        fill_slots(drafts, generator, params, seed=0)
        results.append(
            {"style": style, "temperature": temperature, **score(docs, drafts, taxonomy)}
        )
        print(results[-1], flush=True)
    write_results(
        RESULTS.name, {"rows": len(docs), "model": cfg.generator.model, "results": results}
    )


if __name__ == "__main__":
    main()
