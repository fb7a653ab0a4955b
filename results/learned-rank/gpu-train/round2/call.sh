#!/usr/bin/env bash
# Issue 43 (prepared in the fifty-second session, not run). On the GPU machine, carrying
# target/device (a stripped release `frontier`) and target/deepcubea (puzzle35.tsv, made
# by scripts/deepcubea-tsv.py):
#   bash results/learned-rank/gpu-train/round2/call.sh      (about 520 s)
# 1. g16b.nn at 4·10^6 on the 40 validation boards (val-network-b.ron), paired with
#    g16.nn's rows (../network-call/val-network.csv).
# 2. If it is shorter there, g16b.nn with --dual on DeepCubeA's first 100 (dca-b.ron),
#    paired with g16.nn's rows (results/deepcubea-own-35-network/).
set -u
out=${OUT:-/tmp}
here=results/learned-rank/gpu-train/round2
bin=target/device/frontier
start=$(date +%s)
timeout 150 $bin --quiet run $here/val-network-b.ron --output "$out/val-b.csv" > "$out/val-b.txt" 2>&1
echo "val rc=$? at $(( $(date +%s) - start )) s"
python3 results/nn-rank/cmp.py results/learned-rank/gpu-train/network-call/val-network.csv "$out/val-b.csv" | tee "$out/val-b-paired.txt"
if grep -q "paired -" "$out/val-b-paired.txt"; then
  timeout 400 $bin --quiet run $here/dca-b.ron --output "$out/dca-b.csv" > "$out/dca-b.txt" 2>&1
  echo "dca rc=$? at $(( $(date +%s) - start )) s"
  python3 $here/pair.py "$out/dca-b.csv" results/deepcubea-own-35-network/deepcubea-own-35-network.csv dual=true
fi
