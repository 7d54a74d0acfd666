"""Whether a TTR-1 gap between real and synthetic CVs is length or repetition; prints a
table, writes JSON.

    python -m benchmarks.cvs.cv_repetition --real out/cv_dev_v2/test.jsonl \
        --synthetic out/cv_dev_v2/synthetic_eps1 --output benchmarks/results/cv_dev_v2/repetition.json

TTR-1 is computed per CV and falls with length, so the two sets are compared at equal
length too: TTR-1 of each CV's first N words, and per length bin. Repetition: the share
of a CV's first 300 words that repeat a content word already seen, and the words most
CVs repeat three times or more. Tokens are regex words, lower-cased (not spaCy's, so the
whole-CV TTR differs a little from the evaluation's). The real CVs are private: the JSON
keeps shares and a few repeated words only (a form's labels), never a CV.
"""

import argparse
import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from benchmarks.report import write_results
from eval.metrics import type_token_ratio

WORD = re.compile(r"\w[\w+#.'-]*")
STOP = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "in",
        "a",
        "for",
        "with",
        "on",
        "as",
        "at",
        "is",
        "by",
        "i",
        "my",
        "an",
        "be",
        "from",
        "this",
        "that",
        "are",
        "have",
        "has",
        "was",
    ]
)
WINDOWS = (100, 300)
BINS = ((0, 200), (200, 400), (400, 800), (800, None))


def tokens(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def profile(texts: list[str], top: int = 6) -> dict:
    docs = [tokens(t) for t in texts]
    lengths = np.array([len(d) for d in docs])
    ttrs = np.array([type_token_ratio(d) for d in docs])
    repeated, repeaters = [], Counter()
    for d in docs:
        counts = Counter(d[:300])
        content = sum(n - 1 for w, n in counts.items() if w not in STOP)
        repeated.append(content / max(1, len(d[:300])))
        repeaters.update(w for w, n in Counter(d).items() if n >= 3 and w not in STOP)
    bins = {}
    for lo, hi in BINS:
        inside = (lengths >= lo) & (lengths < (hi or 10**9))
        bins[f"{lo}-{hi or ''}"] = {
            "cvs": int(inside.sum()),
            "ttr_1": round(float(ttrs[inside].mean()), 3) if inside.any() else None,
        }
    return {
        "cvs": len(docs),
        "words_mean": round(float(lengths.mean()), 1),
        "ttr_1": round(float(ttrs.mean()), 3),
        "ttr_1_first_words": {
            n: round(float(np.mean([type_token_ratio(d[:n]) for d in docs if len(d) >= n])), 3)
            for n in WINDOWS
        },
        "ttr_1_by_length": bins,
        "repeated_content_share_first_300": round(float(np.mean(repeated)), 3),
        "words_most_cvs_repeat": [
            (w, round(n / len(docs), 2)) for w, n in repeaters.most_common(top)
        ],
    }


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--real", required=True, help="a cv-experiment's test.jsonl")
    p.add_argument("--synthetic", required=True, help="a generate output folder of CVs")
    p.add_argument("--output", required=True)
    args = p.parse_args(argv)
    real = [json.loads(line)["text"] for line in Path(args.real).read_text().splitlines()]
    synthetic = [
        r["text"] or "" for r in pq.read_table(args.synthetic, columns=["text"]).to_pylist()
    ]
    result = {"real": profile(real), "synthetic": profile(synthetic)}
    print("| measure | real | synthetic |\n| --- | ---: | ---: |")
    r, s = result["real"], result["synthetic"]
    print(f"| CVs | {r['cvs']} | {s['cvs']} |\n| TTR-1, whole CV | {r['ttr_1']} | {s['ttr_1']} |")
    for n in WINDOWS:
        print(
            f"| TTR-1, first {n} words | {r['ttr_1_first_words'][n]} | {s['ttr_1_first_words'][n]} |"
        )
    for b in r["ttr_1_by_length"]:
        a, c = r["ttr_1_by_length"][b], s["ttr_1_by_length"][b]
        print(
            f"| TTR-1, CVs of {b} words | {a['ttr_1']} ({a['cvs']}) | {c['ttr_1']} ({c['cvs']}) |"
        )
    print(
        f"| repeated content words, first 300 | {r['repeated_content_share_first_300']}"
        f" | {s['repeated_content_share_first_300']} |"
    )
    print("real repeat:", r["words_most_cvs_repeat"], "\nsynthetic:", s["words_most_cvs_repeat"])
    write_results(Path(args.output).resolve(), result)


if __name__ == "__main__":
    main()
