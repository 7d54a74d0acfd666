#!/usr/bin/env bash
# How table.md/table.json here were made (2026-11-23): 256 synthetic CVs per ε from the
# DP models and split of the 64-CV run (out/cv_dev64, made by `hrsynth cv-experiment
# ... --num-docs 64`, see README), each row evaluated with the experiment's settings.
# The ε = 1 set was generated with the code of ae284ac (before bullet and semicolon lists were
# kept in slots), the other sets at 2bf23c7. All four models of that run were fitted with
# noise seeded from --seed 0 (before 5daed7d): fine for measuring utility, not private.
set -euo pipefail
export RAY_ADDRESS=local
# Roles drawn by the DP model (cv_roles: dp_model, the only mode before 00a67ba); the
# balanced sets at the end use configs/cvs.yaml as it is now (cv_roles: balanced).
# (configs/cvs.yaml was flat then; the second expression does the same to today's nested file.)
sed 's/^cv_roles: .*/cv_roles: dp_model/; s/^  roles: balanced.*/  roles: dp_model/' configs/cvs.yaml > out/cvs_dp_roles.yaml
COMMON="--test out/cv_dev64/test.jsonl --doc-type cv --epochs 10 --lr 1e-4 --base-model minilm --seed 0"
for E in 1 10000 0.1 10; do
  OUT=out/cv_dev256/synthetic_eps$E; [ "$E" = 1 ] && OUT=out/cv_dev256_eps1
  python -m jobs.generate --config out/cvs_dp_roles.yaml --dp-model out/cv_dev64/model_eps$E.json \
    --num-docs 256 --output $OUT --seed 0
done
python -m jobs.evaluate $COMMON --train out/cv_dev256_eps1 --tasks fasttext,classify --output out/cv_dev256_eps1_eval
python -m jobs.evaluate $COMMON --train out/cv_dev256_eps1 --tasks intrinsic --output out/cv_dev256/eval/synthetic_eps1_intrinsic
for E in 0.1 10 10000; do
  python -m jobs.evaluate $COMMON --train out/cv_dev256/synthetic_eps$E --tasks fasttext,classify,intrinsic \
    --output out/cv_dev256/eval/synthetic_eps$E
done
python -m jobs.evaluate $COMMON --train out/cv_dev64/train.jsonl --train out/cv_dev256_eps1 \
  --tasks fasttext,classify --output out/cv_dev256/eval/real_synthetic_eps1
python -m jobs.evaluate $COMMON --train out/cv_dev256_eps1 --mask-roles --tasks fasttext,classify \
  --output out/cv_dev256/eval/synthetic_eps1_masked
# Two more ε = 1 draws, made after fit's noise came from the OS (5daed7d; code of b469a25):
# each refits the same training table with fresh noise, then generates and evaluates.
for D in fresh fresh2; do
  F=out/cv_dev256_$D
  python -m jobs.fit --data out/cv_dev64/table.csv --schema configs/cv_schema.yaml --epsilon 1 \
    --output $F/model_eps1.json --seed 0
  python -m jobs.generate --config out/cvs_dp_roles.yaml --dp-model $F/model_eps1.json \
    --num-docs 256 --output $F/synthetic_eps1 --seed 0
  python -m jobs.evaluate $COMMON --train $F/synthetic_eps1 --tasks fasttext,classify,intrinsic \
    --output $F/eval_eps1
done
# The two fresh models again, roles balanced (cv_roles: balanced; code of 00a67ba, draw 3's
# at e5a032b): no refit.
for D in fresh fresh2; do
  F=out/cv_dev256_$D
  python -m jobs.generate --config configs/cvs.yaml --dp-model $F/model_eps1.json \
    --num-docs 256 --output $F/synthetic_eps1_balanced --seed 0
  python -m jobs.evaluate $COMMON --train $F/synthetic_eps1_balanced \
    --tasks fasttext,classify,intrinsic --output $F/eval_eps1_balanced
done
O=out/cv_dev256/eval
python -m benchmarks.cvs.cv_table --experiment out/cv_dev64 \
  --row "synthetic ε=0.1=$O/synthetic_eps0.1" \
  --row "synthetic ε=1=out/cv_dev256_eps1_eval,$O/synthetic_eps1_intrinsic" \
  --row "synthetic ε=10=$O/synthetic_eps10" \
  --row "synthetic ε=10000=$O/synthetic_eps10000" \
  --row "real + synthetic ε=1=$O/real_synthetic_eps1" \
  --row "synthetic ε=1, roles masked=$O/synthetic_eps1_masked" \
  --row "synthetic ε=1, draw 2=out/cv_dev256_fresh/eval_eps1" \
  --row "synthetic ε=1, draw 3=out/cv_dev256_fresh2/eval_eps1" \
  --row "synthetic ε=1, draw 2, roles balanced=out/cv_dev256_fresh/eval_eps1_balanced" \
  --row "synthetic ε=1, draw 3, roles balanced=out/cv_dev256_fresh2/eval_eps1_balanced" \
  --output benchmarks/results/cv_experiment_256
