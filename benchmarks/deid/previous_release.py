"""The previous release's de-identification (its merging, types, output steps and
surrogates) run on our sets, written out so that benchmarks/deid/detector.py scores its
outputs exactly as it scores this release's (--previous).

Run from a checkout of that release (it imports that release's code), with the detector
this release is measured with:

    git worktree add /tmp/previous 231f11b
    PYTHONPATH=/tmp/previous python benchmarks/deid/previous_release.py MODEL OUT.json .
    python -m benchmarks.deid.detector --model MODEL --step "…" --previous OUT.json

(PYTHONPATH, not the working folder, decides whose code runs: check that
`synth.__file__` is under /tmp/previous.)

OUT.json holds, per set, the texts, the shareable outputs and the spans replaced
(`--method surrogate`, presidio + the detector, the release's own kind-keeping draws);
the sets are read as plain JSON, so no code of this release is needed to read them.
"""

import json
import sys
from pathlib import Path

import synth
from synth.deid.analyzer.analyze import merged
from synth.deid.analyzer.detectors import make_detectors
from synth.deid.analyzer.normalise import normalise
from synth.deid.anonymizer.operators import surrogated
from synth.deid.pipeline import kind_classifier

model, data = sys.argv[1], Path(sys.argv[3]) / "eval" / "data"
print(f"code: {Path(synth.__file__).parent}", flush=True)
detectors = make_detectors(["presidio", "ner"], model)


def real_writing() -> list[str]:
    """The texts of our annotation of real writing, in its order."""
    shared = data / "real_writing"
    texts, out = {}, []
    for row in map(json.loads, (data / "real_writing.annotations.jsonl").read_text().splitlines()):
        if row["corpus"] not in texts:
            lines = (shared / row["corpus"]).read_text().splitlines()
            texts[row["corpus"]] = {d["id"]: d["text"] for d in map(json.loads, lines)}
        out.append(texts[row["corpus"]][row["id"]])
    return out


def jsonl(name: str) -> list[str]:
    lines = (data / name).read_text(encoding="utf-8-sig").splitlines()
    return [json.loads(line)["text"] for line in lines if line.strip()]


SETS = {
    "dev_people": lambda: jsonl("dev_people.jsonl"),
    "dev": lambda: jsonl("dev_tickets.jsonl"),
    "dev_cvs": lambda: jsonl("dev_cvs.jsonl"),
    "resumes_annotated": lambda: jsonl("resumes_public/resumes.jsonl"),
    "resumes_flat": lambda: jsonl("resumes_flat/resumes.jsonl"),
    "real_writing": real_writing,
}
out = {"what": f"the code of {sys.argv[4] if len(sys.argv) > 4 else 'the previous release'}"}
for name, read in SETS.items():
    try:
        texts = read()
    except FileNotFoundError:
        continue
    read_texts = [normalise(t).text for t in texts]
    found = [d.detect(read_texts) for d in detectors]
    spans = merged(texts, [[s for f in found for s in f[i]] for i in range(len(texts))])
    ids = [str(i) for i in range(len(texts))]
    done = surrogated(ids, texts, spans, 0, kinds=kind_classifier(detectors))
    out[name] = {
        "texts": texts,
        "outputs": [r.text for r in done],
        "spans": [[[s.start, s.end, s.type] for s in doc] for doc in spans],
        "keys": [r.key for r in done],
        "written": [[[s.start, s.end, s.type] for s in r.spans] for r in done],
    }
    print(name, "done", flush=True)
Path(sys.argv[2]).write_text(json.dumps(out))
