"""`hrsynth evolve` end to end with the real generator and encoder: a profile, two rounds of
votes, one ledger holding both; no 8-word sequence of a private ticket (a planted canary
included) in anything it writes; bad input named before any ε is spent."""

import json
import re

import pytest

from jobs import evolve as evolve_job
from jobs import profile as profile_job
from synth.kinds.tickets.taxonomy import load_taxonomy

CANARY = "my neighbour's tortoise Bartholomew swallowed the spare key to the shed again"
TEXTS = [
    "Hi,\n\nI need 3 days off from March 3 for my knee surgery.\n\nThanks,\nAnna",
    "dear hr i would like a 10 percent raise, my salary is $40,000",
    "Can I swap my shift next Monday? My son has a school play. Tom",
    f"Hello, my manager keeps shouting at me in meetings, and {CANARY}. Regards, Bea",
]


def eight_grams(text: str) -> set:
    words = text.lower().split()
    return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}


@pytest.fixture(scope="module")
def evolved(tmp_path_factory, dp_model):
    tmp = tmp_path_factory.mktemp("evolve")
    texts = tmp / "tickets.jsonl"
    texts.write_text("".join(json.dumps({"text": t}) + "\n" for t in TEXTS * 10))
    profile = tmp / "profile.json"
    assert (
        profile_job.main(["--texts", str(texts), "--epsilon", "2", "--output", str(profile)]) == 0
    )
    out, population = tmp / "evolved.json", tmp / "population.jsonl"
    args = ["--texts", str(texts), "--profile", str(profile), "--epsilon", "2", "--delta", "1e-3"]
    args += ["--rounds", "2", "--pool", "6", "--output", str(out), "--population", str(population)]
    args += ["--dp-model", str(dp_model)]  # a fresh clone has no out/absence_model.json
    assert evolve_job.main(args) == 0
    return tmp, json.loads(out.read_text()), population.read_text()


def test_the_rounds_join_the_profiles_ledger(evolved):
    _, doc, _ = evolved
    pe = doc["evolution"]
    assert pe["rounds"] == 2 and [r["round"] for r in pe["round_costs"]] == [1, 2]
    assert pe["round_costs"][0]["written_tokens"] > 0  # round 1 pays for the first pool
    assert 2 * 0.98 < pe["epsilon"] <= 2.0 and pe["delta"] == 1e-3
    ledger = doc["ledger"]
    assert ledger["budget"] == 4.0 and ledger["spent"] == pytest.approx(2.0 + pe["epsilon"])
    assert ledger["delta"] == 1e-3 and ledger["entries"][-1]["mechanism"].startswith("Gaussian")
    assert doc["epsilon"] == ledger["spent"]
    taxonomy = load_taxonomy()
    for label, weights in pe["template_weights"].items():
        assert label in taxonomy
        assert {t.id for t in taxonomy[label].templates} >= set(weights)
        assert sum(weights.values()) == pytest.approx(1.0, abs=1e-5)


def test_no_private_sequence_reaches_the_output(evolved, capsys):
    _, doc, population = evolved
    lines = [json.loads(line) for line in population.splitlines()]
    assert len(lines) == 6 and all(line["text"] for line in lines)
    private = set().union(*(eight_grams(t) for t in TEXTS))
    assert len(eight_grams(CANARY) & private) >= 3  # the canary's sequences are private
    released = json.dumps(doc) + population + capsys.readouterr().out
    assert not private & eight_grams(released)
    assert "tortoise" not in released


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--delta", "0.05"], "--delta 0.05 is not below 1 / 40 tickets"),
        (["--pool", "1"], "--pool must be >= 2, got 1"),
        (["--delta", "1.5"], "--delta must be < 1, got 1.5"),
        (["--epsilon", "0"], "--epsilon must be a number in"),
    ],
)
def test_bad_options_are_named_with_the_fix(evolved, extra, message, capsys):
    tmp, _, _ = evolved
    args = ["--texts", str(tmp / "tickets.jsonl"), "--profile", str(tmp / "profile.json")]
    args += ["--epsilon", "1", "--output", str(tmp / "x.json"), *extra]
    assert evolve_job.main(args) != 0
    assert re.search(message, capsys.readouterr().err)
    assert not (tmp / "x.json").exists()


def test_a_file_that_is_no_profile_is_named(evolved, capsys):
    tmp, _, _ = evolved
    args = ["--texts", str(tmp / "tickets.jsonl"), "--profile", str(tmp / "tickets.jsonl")]
    assert evolve_job.main([*args, "--epsilon", "1", "--output", str(tmp / "y.json")]) != 0
    assert "--profile" in capsys.readouterr().err and not (tmp / "y.json").exists()
