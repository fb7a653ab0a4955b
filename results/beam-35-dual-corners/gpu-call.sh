#!/usr/bin/env bash
# Issue 43, a temporary experiment: each of a board's other duals alone on the GPU
# (FRONTIER_DUAL_ONLY=i), DeepCubeA's first 100 35-puzzles; builds nothing.
#   results/beam-35-dual-corners/gpu-call.sh 1 2 3
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
for i in "$@"; do
  start=$(date +%s)
  FRONTIER_DUAL_ONLY=$i target/device/frontier --quiet run results/beam-35-dual-corners/only.ron \
    --output "$out/only$i.csv" --overwrite > "$out/only$i.txt" 2>&1
  echo "== only$i: $(( $(date +%s) - start )) s; $(tail -n 1 "$out/only$i.txt")"
done
