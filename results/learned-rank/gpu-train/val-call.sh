#!/usr/bin/env bash
# Issue 43 (prepared in the fiftieth session, not run). On the GPU machine, carrying
# target/device/frontier (stripped release build of main):
#   bash results/learned-rank/gpu-train/val-call.sh        (about 150 s with the databases)
# Ranks the 40 validation boards' beams of 4·10^6 by the weights fitted on the GPU's own
# paths, and pairs them with iteration 2's rows at the same width.
set -u
out=${OUT:-/tmp}
here=results/learned-rank/gpu-train
start=$(date +%s)
timeout 400 target/device/frontier --quiet run $here/val-gpu-width.ron \
  --output "$out/val-gpu-width.csv" > "$out/val-gpu-width.txt" 2>&1
echo "rc=$? in $(( $(date +%s) - start )) s"
python3 results/nn-rank/cmp.py results/learned-rank/gpu-val-4e6-linear-it2.csv "$out/val-gpu-width.csv"
