"""The previous release's de-identification (commit 9e1492c: its types, output steps and
surrogates), scored as issue 54 scores it: privacy over every gold span of our sets.

Run from a checkout of that commit (it imports that release's code), with a detector
that release's recipe built and this project's development sets:

    git worktree add /tmp/previous 9e1492c
    PYTHONPATH=/tmp/previous python benchmarks/deid/previous_release.py MODEL OUT.json .

(PYTHONPATH, not the working folder, decides whose code runs: check that
`synth.__file__` is under /tmp/previous.)

It prints privacy (every gold span: entities and `personal`; CVs and the real-writing
set: `personal`, as benchmarks/deid/detector.py counts them), the share of other words
kept, predicted and gold spans and the kind kept per set.
"""

import json
import sys
from pathlib import Path

from eval.deid import other_words_kept, replaced_texts
from synth.deid.detectors import make_detectors
from synth.deid.methods import name_parts_alone
from synth.deid.privacy import normalised, privacy_score
from synth.deid.spans import Span, resolve

model, data = sys.argv[1], Path(sys.argv[3]) / "eval" / "data"
presidio = make_detectors(["presidio"])[0]
ner = make_detectors(["ner"], model)[0]
kinds = ner.detector.kinds if hasattr(ner, "detector") else None
out = {}


def real_writing() -> list[dict]:
    """Our annotation of real writing (benchmarks/deid/detector.py's real_writing set),
    read with the texts of eval/data/real_writing/ as plain dicts (no code of this release needed)."""
    shared = data / "real_writing"
    rows = (data / "real_writing.annotations.jsonl").read_text().splitlines()
    texts = {}
    docs = []
    for row in map(json.loads, rows):
        if row["corpus"] not in texts:
            lines = (shared / row["corpus"]).read_text().splitlines()
            texts[row["corpus"]] = {d["id"]: d["text"] for d in map(json.loads, lines)}
        docs.append({"text": texts[row["corpus"]][row["id"]], "personal": row["spans"]})
    return docs


for name in ["dev_people", "dev_tickets", "dev_cvs", "real_writing"]:
    if name == "real_writing":
        docs = real_writing()
    else:
        lines = (data / f"{name}.jsonl").read_text(encoding="utf-8-sig").splitlines()
        docs = [json.loads(line) for line in lines]
    texts = [d["text"] for d in docs]
    spans_of = (
        (lambda d: d.get("personal", []))
        if name in ("dev_cvs", "real_writing")
        else (lambda d: d.get("entities", []) + d.get("personal", []))
    )
    gold = [resolve([Span(s, e, "X", "gold") for s, e, _ in spans_of(d)]) for d in docs]
    found = [presidio.detect(texts), ner.detect(texts)]
    spans = []
    for i, t in enumerate(texts):
        mine = [s for f in found for s in f[i]]
        spans.append(resolve(mine + name_parts_alone(t, mine)))
    outs = replaced_texts(texts, spans, [str(i) for i in range(len(texts))], "surrogate", 0)
    priv = sum(
        privacy_score([t[g.start : g.end] for g in gs], o) for t, gs, o in zip(texts, gold, outs)
    ) / len(texts)
    out[name] = {
        "privacy": round(priv, 4),
        "other_words_kept": round(other_words_kept(texts, gold, outs), 4),
        "predicted_spans": sum(len(x) for x in spans),
        "gold_spans": sum(len(g) for g in gold),
    }
    survived = {}  # per gold label, spans the output holds verbatim (detector.py's survival)
    for t, d, o in zip(texts, docs, outs):
        for a, b, label in spans_of(d):
            if normalised(t[a:b]):
                kept, total = survived.get(label, (0, 0))
                survived[label] = (kept + (normalised(t[a:b]) in normalised(o)), total + 1)
    out[name]["verbatim"] = {k: {"verbatim": v, "of": n} for k, (v, n) in sorted(survived.items())}
    if kinds is not None:  # the same kind read before and after (benchmarks' kind_kept)
        same = kinds.probabilities(texts).argmax(1) == kinds.probabilities(outs).argmax(1)
        out[name]["kind_kept"] = round(float(same.mean()), 4)
    print(name, out[name], flush=True)
# 100 public resumes without gold (../shared cv_dev, as detector.py reads them): the
# clause-type spans the detector reports and the share of all words kept.
resumes = (
    Path(sys.argv[3]).resolve().parent / "shared" / "data" / "cv_dev" / "UpdatedResumeDataSet.csv"
)
if resumes.is_file():
    import csv

    with resumes.open(encoding="utf-8", errors="replace") as f:
        texts = list(dict.fromkeys(r["Resume"] for r in csv.DictReader(f)))[:100]
    found = [presidio.detect(texts), ner.detect(texts)]
    clause = {"CONDUCT", "CIRCUMSTANCE", "HEALTH", "LIFE_EVENT"}
    spans = []
    for i, t in enumerate(texts):
        mine = [s for f in found for s in f[i]]
        spans.append(resolve(mine + name_parts_alone(t, mine)))
    outs = replaced_texts(texts, spans, [str(i) for i in range(len(texts))], "surrogate", 0)
    by_ner = [[x for x in f if x.type in clause] for f in found[1]]
    out["cv_dev_resumes"] = {
        "documents": len(texts),
        "clause_spans": sum(map(len, by_ner)),
        "documents_with_one": sum(bool(x) for x in by_ner),
        "words_kept": round(other_words_kept(texts, [[] for _ in texts], outs), 4),
    }
    print("cv_dev_resumes", out["cv_dev_resumes"], flush=True)
Path(sys.argv[2]).write_text(json.dumps(out, indent=1))
