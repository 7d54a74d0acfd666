"""The built detector's BIO model at each precision the encoder could run at, against
float32 on the same texts: speed, and how often every word's tag stays the same (what
chose synth.precision's `auto`).

Texts: the 223 human-written tickets and mails of eval/data (dev_tickets, dev_people,
real_writing), cut at the BIO model's window (500 characters). Precisions: float32
(the reference), bf16 under autocast (what `auto` runs), bf16 weights, int8 dynamic
quantisation of the linear layers. One thread, batches of 32 sorted by length.

    python -m benchmarks.deid.encoder_precision [--output encoder_precision.json] [--skip-bf16]

Prints a table and writes benchmarks/results/NAME; the CPU is in its provenance.
"""

import argparse
import time

import torch

from benchmarks.report import print_table, write_results
from benchmarks.speed.deidentify import texts_of


def run(model, tokenizer, texts: list[str], autocast: bool) -> tuple[float, list]:
    from synth.encoder import encode

    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = [None] * len(texts)
    started = time.perf_counter()
    with torch.no_grad():
        for first in range(0, len(order), 32):
            rows = order[first : first + 32]
            enc = encode(tokenizer, [texts[i] for i in rows])
            enc.pop("offset_mapping")
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                logits = model(**enc).logits.float()
            for r, i in enumerate(rows):
                out[i] = logits[r, : int(enc["attention_mask"][r].sum())].softmax(-1)
    return time.perf_counter() - started, out


def main(argv=None) -> dict:
    from transformers import AutoModelForTokenClassification

    from synth.deid.analyzer.detectors import NER_WINDOW
    from synth.deid.registry import default_detector
    from synth.encoder import load_tokenizer

    p = argparse.ArgumentParser()
    p.add_argument("--output", default="encoder_precision.json")
    p.add_argument(
        "--skip-bf16", action="store_true", help="float32 and int8 only (AVX2: bf16 is emulated)"
    )
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    built = default_detector()
    if built is None:
        raise SystemExit("no detector is built: run `make detector` first")
    folder = built["path"]
    texts = [t[: NER_WINDOW[0]] for t in texts_of("tickets")]
    tokenizer = load_tokenizer(folder)

    def load(**kwargs):
        return AutoModelForTokenClassification.from_pretrained(folder, **kwargs).eval()

    reference = load()
    run(reference, tokenizer, texts[:8], False)  # warm
    seconds, expected = run(reference, tokenizer, texts, False)
    rows = [{"precision": "float32", "seconds": round(seconds, 2), "speed": 1.0,
             "texts_all_tags_same": len(texts), "max_probability_change": 0.0}]  # fmt: skip
    int8 = torch.ao.quantization.quantize_dynamic(load(), {torch.nn.Linear}, dtype=torch.qint8)
    candidates = [("int8 dynamic", int8, False)]
    if not args.skip_bf16:
        candidates = [
            ("bf16 autocast (auto)", reference, True),
            ("bf16 weights", load(dtype=torch.bfloat16), False),
        ] + candidates
    for name, model, autocast in candidates:
        run(model, tokenizer, texts[:8], autocast)
        took, found = run(model, tokenizer, texts, autocast)
        same = sum(bool((a.argmax(-1) == b.argmax(-1)).all()) for a, b in zip(found, expected))
        change = max(float((a - b).abs().max()) for a, b in zip(found, expected))
        rows.append({"precision": name, "seconds": round(took, 2),
                     "speed": round(seconds / took, 2), "texts_all_tags_same": same,
                     "max_probability_change": round(change, 4)})  # fmt: skip
    print_table(
        rows,
        [("precision", "precision", ""), ("seconds", "s", ".2f"), ("speed", "× float32", ".2f"),
         ("texts_all_tags_same", f"texts with every tag as float32 (of {len(texts)})", ""),
         ("max_probability_change", "largest probability change", ".4f")],
    )  # fmt: skip
    results = {"texts": len(texts), "detector": built["version"], "rows": rows}
    write_results(args.output, results, indent=2)
    return results


if __name__ == "__main__":
    main()
