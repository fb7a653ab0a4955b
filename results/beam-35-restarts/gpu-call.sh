#!/bin/bash
# Issue 43 (prepared in the thirty-fifth session, not run: the device time was spent).
# The thirty-first session's restarts (restarts.py) on the GPU, where width has stopped
# paying (4·10⁶ to 9·10⁶: a tenth of a move on DeepCubeA's first 30 35-puzzles): the
# ranked beam of 4·10⁶, then beams of 4·10⁶ from its path's states at a quarter, half
# and three quarters, the shortest kept (about 4.5 s of beams a board). Compare with the
# GPU rows: one beam of 4·10⁶ 129.60, of 9·10⁶ 129.47, DeepCubeA 128.33 on these 30.
# Binary: a stripped release build of HEAD in target/device-43/frontier; the instance
# file target/deepcubea/puzzle35.tsv (configs/deepcubea-own-35.ron says how to make it).
# Carry ["target/device-43", "target/deepcubea", "results/beam-35-restarts/restarts.py",
# "results/beam-35-restarts/gpu-call.sh"]; the first beam builds the databases (about
# a minute or two on 16 cores), then about 5 minutes; timeout_s 600.
export CUDA_VISIBLE_DEVICES=0
BIN=target/device-43/frontier
$BIN solve tiles --heuristic 5-5-5-5-5-5-5 --reflect --executor gpu --beam 1000 --quiet \
  "$(sed -n 2p target/deepcubea/puzzle35.tsv | cut -f2)" > $OUT/warm-up.txt 2>&1
echo "warm-up rc=$?"
RESTART_ARGS="--executor gpu" timeout 480 python3 results/beam-35-restarts/restarts.py \
  $BIN target/deepcubea/puzzle35.tsv 30 4000000 0.25,0.5,0.75 > $OUT/gpu-30-4e6-quarters.tsv
echo "restarts rc=$?"
python3 - $OUT/gpu-30-4e6-quarters.tsv <<'PY'
import sys
rows = [l.split("\t") for l in open(sys.argv[1])][1:]
n = len(rows)
if n:
    mean = lambda i: sum(float(r[i]) for r in rows) / n
    print(f"{n} boards: DeepCubeA {mean(1):.2f}, beam {mean(2):.2f}, best {mean(4):.2f}, s/board {mean(6):.2f}")
PY
