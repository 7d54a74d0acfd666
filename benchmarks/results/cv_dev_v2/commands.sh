#!/usr/bin/env bash
# How table.md/table.json here were made (2026-11-25, code 17be04b): the docs' "Your own
# CV corpus" section followed verbatim on the development corpus, default configs/cvs.yaml
# (roles balanced, long slots 6x), no roles file, no --as-of (the corpus's year is unknown).
# The run was interrupted once at a session's end and resumed with the same command.
set -euo pipefail
hrsynth cv-experiment --corpus ../shared/data/cv_dev/UpdatedResumeDataSet.csv \
  --output out/cv_dev_v2 --epsilons 1 --num-docs 256 --permutations 10 --baseline-epochs 1
# Slot errors and the TTR diagnosis in ../cv_second.md were computed from
# out/cv_dev_v2/synthetic_eps1 and out/cv_dev_v2/test.jsonl (numbers only).
python -m benchmarks.text.list_slots --synthetic out/cv_dev_v2/synthetic_eps1 \
  --output benchmarks/results/list_slots.json
python -m benchmarks.cvs.cv_repetition --real out/cv_dev_v2/test.jsonl --synthetic out/cv_dev_v2/synthetic_eps1 \
  --output benchmarks/results/cv_dev_v2/repetition.json
