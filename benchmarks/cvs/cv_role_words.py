"""Which words mark a role in the real CVs, and how often the synthetic CVs of that role
hold them; prints a table, writes JSON.

    python -m benchmarks.cvs.cv_role_words --experiment out/cv_second60 \
        --synthetic out/cv_second60/synthetic_eps1 --roles "Web Developer,Database Administrator" \
        --output benchmarks/results/cv_second/role_words_run1.json

A word marks a role when at least 30 % of the role's real training CVs hold it and they
hold it at least 1.8 times as often as the real training CVs of all roles. Shares are of
documents holding the word (lower-cased; words keep '+', '#' and inner dots: c++, c#,
asp.net). Reads the experiment's train.jsonl (private: run where the corpus may live;
the JSON keeps words and shares only, never a CV).
"""

import argparse
import json
import re
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.report import write_results

MIN_SHARE, MIN_LIFT, TOP = 0.3, 1.8, 12
WORD = re.compile(r"[a-z][a-z0-9+#.]*[a-z0-9+#]|[a-z]")


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def share(docs: list[set[str]], word: str) -> float:
    return sum(word in d for d in docs) / max(1, len(docs))


def role_words(real: list[tuple[str, set]], synthetic: list[tuple[str, set]], role: str):
    """[(word, share in the role's real CVs, share in its synthetic CVs)], most common first."""
    overall = Counter(w for _, d in real for w in d)
    mine = [d for label, d in real if label == role]
    counts = Counter(w for d in mine for w in d)
    marking = [
        w
        for w, n in counts.items()
        if n / len(mine) >= MIN_SHARE and (n / len(mine)) / (overall[w] / len(real)) >= MIN_LIFT
    ]
    theirs = [d for label, d in synthetic if label == role]
    ranked = sorted(marking, key=lambda w: -counts[w])[:TOP]
    return [(w, round(counts[w] / len(mine), 2), round(share(theirs, w), 2)) for w in ranked]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--experiment", required=True, help="a cv-experiment output folder")
    p.add_argument("--synthetic", required=True, help="a generate output folder of CVs")
    p.add_argument("--roles", required=True, help="roles, comma-separated")
    p.add_argument("--output", required=True)
    args = p.parse_args(argv)
    lines = Path(args.experiment, "train.jsonl").read_text(encoding="utf-8").splitlines()
    real = [(r["label"], words(r["text"])) for r in map(json.loads, lines)]
    table = pq.read_table(args.synthetic, columns=["label", "text"]).to_pylist()
    synthetic = [(r["label"], words(r["text"] or "")) for r in table]
    result = {role: role_words(real, synthetic, role) for role in args.roles.split(",")}
    for role, rows in result.items():
        print(f"{role}: " + ", ".join(f"{w} {a:.0%} -> {b:.0%}" for w, a, b in rows))
    write_results(Path(args.output).resolve(), result)


if __name__ == "__main__":
    main()
