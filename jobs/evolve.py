"""Private Evolution on top of a writing profile: which templates the user's staff write like.

    hrsynth profile --texts tickets.jsonl --epsilon 2 --output out/profile.json
    hrsynth evolve --texts tickets.jsonl --profile out/profile.json --epsilon 2 \\
        --output out/evolved.json
    hrsynth generate --config my.yaml …   # tickets.writing_profile: out/evolved.json

Plans and writes --pool candidate tickets with the profile's settings, then for --rounds
rounds lets every private ticket vote for its nearest candidate (MiniLM embeddings), adds
Gaussian noise to the votes (z calibrated with the PRV accountant so that all rounds
spend at most --epsilon at --delta), keeps the better half and varies the rest
(synth/style/evolution.py). Writes the profile with an `evolution` block (template
weights per label, the noise, the cost of each round) and one ledger holding the
profile's ε and the rounds'; generate then writes a normal output from it, at any size.

The generator runs in this process (ct2 or llama.cpp on CPU, hf on a GPU). Reads private
rows: never prints or writes one, nor any unnoised count.
"""

import copy
import dataclasses
import math
import sys
import time

import numpy as np

from jobs.entry import main_for
from synth import ConfigError
from synth.config.options import options_from
from synth.config.private_options import EvolveOptions

OPTIONS = EvolveOptions
RESERVOIR = 4  # plans drawn per candidate to vary: variations of a parent come from these


class Candidates:
    """Plans and writes candidate tickets with the profile's settings, counting the cost."""

    def __init__(self, args, profile_path: str):
        from synth.config.generate import load_config
        from synth.generation.backends import Backend

        overrides = {"seed": args.seed, "model": args.model, "backend": args.backend}
        overrides["dp_model"] = args.dp_model
        self.cfg = load_config(args.config, overrides).updated(writing_profile=profile_path)
        self.engine = Backend(self.cfg.engine).build()
        self.params = self.cfg.generation_params()
        self.seed, self.pool = args.seed, args.pool
        self.seconds, self.tokens = 0.0, 0

    def plans(self, n: int, round_: int) -> list:
        from synth.kinds import plan_documents

        cfg = self.cfg.updated(num_docs=n, seed=self.seed + 7919 * round_, shard_size=n)
        docs, _ = plan_documents(cfg, f"pe{round_}")
        return docs

    def write(self, plans: list, round_: int) -> list[str]:
        """The plans' texts; each plan gets a fresh index, so a rewritten parent draws
        other words."""
        from synth.generation.render import render_fitting

        started = time.time()
        plans = [dataclasses.replace(p, index=round_ * 1_000_000 + i) for i, p in enumerate(plans)]
        texts, batch = [], self.cfg.scale.batch_size
        for i in range(0, len(plans), batch):
            rows = render_fitting(
                plans[i : i + batch], self.engine, self.params, "plain", self.seed
            )
            texts += [r["text"] for r in rows]
            self.tokens += sum(r["prompt_tokens"] + r["generated_tokens"] for r in rows)
        self.seconds += time.time() - started
        return texts


def run(options) -> dict:
    args = options_from(EvolveOptions, options)
    from synth.deid.corpus import read_documents
    from synth.io.storage import write_json
    from synth.kinds.tickets.writing_profile import load_profile

    profile = load_profile(args.profile, f"--profile {args.profile}")
    texts = read_documents(args.texts, args.text_field, "id", "label", args.encoding)["text"]
    if args.delta >= 1 / len(texts):
        raise ConfigError(
            f"--delta {args.delta:g} is not below 1 / {len(texts)} tickets: a δ that large "
            "allows releasing a ticket outright; use e.g. "
            f"{10 ** math.floor(math.log10(0.1 / len(texts))):g}"
        )
    evolved, last, votes = evolve_profile(args, profile, texts.to_pylist())
    write_json(args.output, evolved)
    if args.population:
        _write_population(args.population, last, votes)
    about = evolved["evolution"]
    print(
        f"Private Evolution on {len(texts)} tickets: {args.rounds} rounds of {args.pool} "
        f"candidates, noise multiplier {about['noise_multiplier']:.3f}, ε "
        f"{about['epsilon']:.3g} at δ {args.delta:g}"
    )
    print(f"evolved profile written to {args.output}")
    return evolved


def evolve_profile(args, profile: dict, texts: list[str], observe=None):
    """(the evolved profile, the last population, its noisy votes). `observe(round,
    population)` sees each population voted on (benchmarks measure them)."""
    from synth.dp.ledger import Ledger
    from synth.encoder import sentence_embeddings
    from synth.style import evolution
    from synth.style.evolve import MECHANISM, SENSITIVITY, calibrate, epsilon_spent

    exact = math.isinf(args.epsilon)  # benchmarks only (the option refuses it): exact votes
    z = 0.0 if exact else calibrate(args.epsilon, args.rounds, args.delta)
    spent = math.inf if exact else epsilon_spent(z, args.rounds, args.delta)
    private = sentence_embeddings(texts)
    candidates = Candidates(args, args.profile)
    rng = np.random.default_rng(args.seed)
    first_plans = candidates.plans(args.pool, 0)
    first_texts = candidates.write(first_plans, 0)
    first = evolution.Population(first_plans, first_texts, sentence_embeddings(first_texts))
    rounds: list[dict] = []
    cost = [0.0, 0]

    def vary(parent_plans: list, round_: int):
        reservoir = candidates.plans(RESERVOIR * len(parent_plans), round_)
        plans = evolution.variations(parent_plans, reservoir, lambda p: p)
        return plans, candidates.write(plans, round_)

    def on_round(report, population) -> None:
        rounds.append(
            {
                "round": report.round,
                "candidates": len(population.plans),
                "written_seconds": round(candidates.seconds - cost[0], 1),
                "written_tokens": candidates.tokens - cost[1],
            }
        )
        cost[:] = [candidates.seconds, candidates.tokens]
        print(f"round {report.round}: {len(population.plans)} candidates voted on", flush=True)
        if observe:
            observe(report.round, population)

    last, votes = evolution.evolve(
        private, first, vary, sentence_embeddings, args.rounds, z, rng, on_round
    )
    del private
    sigma = z * SENSITIVITY
    evolved = copy.deepcopy(profile)
    evolved["evolution"] = {
        "rounds": args.rounds,
        "pool": args.pool,
        "epsilon": spent,
        "delta": args.delta,
        "noise_multiplier": z,
        "sigma": sigma,
        "accountant": "PRV (prv-accountant), upper bound",
        "sensitivity": f"L2 {SENSITIVITY:.4f} (replace-one: one vote moves)",
        "embedding": "MiniLM-L6 mean-pooled (the packaged encoder)",
        "generator": f"{candidates.cfg.generator.model} ({candidates.cfg.generator.backend})",
        "round_costs": rounds,
        "template_weights": evolution.template_weights(last.plans, votes, floor=sigma),
    }
    if exact:
        evolved["evolution"]["epsilon"], evolved["private"] = None, False
        return evolved, last, votes
    old = profile.get("ledger") or {"budget": 0.0, "entries": []}
    ledger = Ledger(old["budget"] + args.epsilon, list(old["entries"]))
    ledger.spend(
        f"Private Evolution: {args.rounds} rounds of nearest-candidate votes "
        f"({args.pool} candidates each), composed by the PRV accountant",
        spent,
        SENSITIVITY,
        MECHANISM,
        delta=args.delta,
    )
    if profile.get("private"):
        evolved["epsilon"], evolved["ledger"] = ledger.spent, ledger.to_dict()
    else:  # an exact (benchmark) profile: only the rounds are private
        evolved["evolution"]["ledger"] = ledger.to_dict()
    return evolved, last, votes


def _write_population(path: str, population, votes) -> None:
    import json

    from synth.io.storage import write_bytes

    lines = [
        json.dumps(
            {
                "text": text,
                "label": plan.label,
                "template": plan.template_id,
                "noisy_votes": round(float(v), 3),
            }
        )
        for plan, text, v in zip(population.plans, population.texts, votes)
    ]
    write_bytes(path, ("\n".join(lines) + "\n").encode())


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "evolve", argv)


if __name__ == "__main__":
    sys.exit(main())
