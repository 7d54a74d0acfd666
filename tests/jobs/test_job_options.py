"""Every job's options on bad values: exit 2 and one line naming the flag, before any
data is read or Ray starts; and the options classes that the CLI is built from."""

import argparse
from dataclasses import fields

import pytest

from jobs.cli import COMMANDS, command, main
from synth import ConfigError
from synth.config.evaluate_options import EvaluateOptions
from synth.config.options import add_options, options_from
from synth.config.private_options import FitOptions

FIT = ["--data", "d.csv", "--schema", "s.yaml", "--output", "m.json"]
EVALUATE = ["--train", "t", "--test", "x.jsonl", "--output", "o"]
EVOLVE = ["evolve", "--texts", "t.jsonl", "--profile", "p.json", "--epsilon", "1"]
PROBES = [
    (["fit", *FIT, "--epsilon", "inf"], "--epsilon must be a number in (0, 10000]"),
    (["fit", *FIT, "--epsilon", "1e308"], "--epsilon must be a number in (0, 10000]"),
    (["fit", *FIT, "--epsilon", "0"], "--epsilon must be a number in (0, 10000]"),
    (["fit", *FIT, "--epsilon", "1", "--holdout", "1"], "--holdout must be < 1, got 1.0"),
    (["fit", *FIT, "--epsilon", "1", "--degree", "-1"], "--degree must be >= 0, got -1"),
    (["evaluate", *EVALUATE, "--epochs", "0"], "--epochs must be >= 1, got 0"),
    (["evaluate", *EVALUATE, "--doc-type", "letter"], "doc_type 'letter' unknown; use one of"),
    (["evaluate", *EVALUATE, "--permutations", "-1"], "--permutations must be >= 0, got -1"),
    (["extract", "--corpus", "c.csv", "--output", "t.csv", "--min-count", "0"], "--min-count"),
    (
        ["refresh", "--output-root", "r", "--test", "x.jsonl", "--fit-data", "p.csv"],
        "refitting needs all of --fit-data, --fit-schema and --epsilon",
    ),
    (
        ["cv-experiment", "--corpus", "c.csv", "--output", "o", "--test-share", "1.5"],
        "--test-share must be < 1, got 1.5",
    ),
    # No job writes over what it reads (the user's private tickets, above all).
    (
        [*EVOLVE, "--output", "e.json", "--population", "t.jsonl"],
        "--population t.jsonl would write over --texts t.jsonl, an input of this job",
    ),
    (
        [*EVOLVE, "--output", "./p.json"],
        "--output ./p.json would write over --profile p.json, an input of this job",
    ),
    ([*EVOLVE, "--output", "e.json", "--population", "e.json"], "are the same place"),
    (["fit", *FIT[:4], "--output", "d.csv", "--epsilon", "1"], "--output d.csv would write over"),
    (
        ["profile", "--texts", "t.jsonl", "--epsilon", "1", "--output", "t.jsonl"],
        "--output t.jsonl would write over --texts",
    ),
    (["evaluate", *EVALUATE[:4], "--output", "t"], "--output t would write over --train t"),
    (
        ["generate", "--config", "o/my.yaml", "--output", "o"],
        "--output o would write over --config o/my.yaml",
    ),
    (["push", "--output", "o", "--repo-id", "a/b", "--to-folder", "o"], "same place"),
    # ... nor inside a folder it reads: the next run read its own output (issue 64)
    (
        ["evaluate", *EVALUATE[:4], "--output", "t/eval"],
        "--output t/eval lies inside --train t, a folder this job reads",
    ),
    (
        ["profile", "--texts", "mail", "--epsilon", "1", "--output", "mail/profile.json"],
        "--output mail/profile.json lies inside --texts mail, a folder this job reads",
    ),
]


@pytest.mark.parametrize(
    "argv, message", PROBES, ids=[" ".join(p[0][:1] + p[0][-2:]) for p in PROBES]
)
def test_bad_options_are_named_in_one_line(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)  # nothing of the probes exists here, nothing may be written
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("error: ") and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_options_objects_get_the_same_checks_as_flags():
    good = {"data": "d.csv", "schema": "s.yaml", "output": "m.json", "epsilon": 1.0}
    assert options_from(FitOptions, good).holdout == 0.0
    with pytest.raises(ConfigError, match=r"--epsilon must be a number, got '1'"):
        options_from(FitOptions, {**good, "epsilon": "1"})
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) \['epsilom'\]"):
        options_from(FitOptions, {**good, "epsilom": 1})
    with pytest.raises(ConfigError, match="--data, --schema required"):
        options_from(FitOptions, {"output": "m.json", "epsilon": 1.0})
    with pytest.raises(ConfigError, match="--train must be a list of strings"):
        options_from(EvaluateOptions, EvaluateOptions(train="out", test="t", output="o"))


def test_flags_are_built_from_the_options_with_types_and_choices():
    parser = argparse.ArgumentParser()
    add_options(parser, EvaluateOptions)
    parsed = parser.parse_args(["--train", "a", "--train", "b", "--test", "t", "--output", "o"])
    options = options_from(EvaluateOptions, parsed)
    assert options.train == ["a", "b"] and options.epochs == 3 and options.lr == 5e-5
    with pytest.raises(SystemExit):
        parser.parse_args(["--train", "a", "--test", "t", "--output", "o", "--gpu", "maybe"])


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_every_job_is_documented(name):
    assert all(f.metadata.get("help") for f in fields(command(name).OPTIONS))


def test_evaluation_tasks_come_from_one_registry():
    """The help names every task of the registry, a kind's tasks are registered ones, and
    a task that needs what another leaves runs after it whatever the order asked."""
    from jobs import evaluate
    from jobs.entry import parser_for
    from jobs.eval_tasks import TASKS, in_order
    from synth.kinds import kind

    help_text = " ".join(parser_for(evaluate, "evaluate").format_help().split())
    assert f"(from: {', '.join(TASKS)})" in help_text
    assert set(kind("cv").EVAL_TASKS) <= set(TASKS) and kind("ticket").EVAL_TASKS is None
    assert in_order(["deid", "classify", "bio_ner"]) == ["classify", "bio_ner", "deid"]
    assert in_order(["deid", "classify"]) == ["deid", "classify"]


def test_the_cli_builds_only_the_chosen_jobs_parser():
    """`hrsynth fit --help` imports jobs.fit and no other job (each job's options and
    registries load only when it runs)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom jobs import cli\ntry:\n    cli.main(['fit', '--help'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('jobs.') and m != 'jobs.entry'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "['jobs.cli', 'jobs.fit']"
    assert set(COMMANDS) <= set(
        subprocess.run(
            [sys.executable, "-m", "jobs.cli", "--help"], capture_output=True, text=True, check=True
        )
        .stdout.replace(",", " ")
        .replace("{", " ")
        .replace("}", " ")
        .split()
    )
