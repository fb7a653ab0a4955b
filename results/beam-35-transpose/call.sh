#!/usr/bin/env bash
# Issue 43 (fifty-fifth session): does a beam on the transposed board find other
# routes, as the dual does? On the GPU machine, carrying target/device (stripped
# `frontier`) and target/deepcubea:
#   bash results/beam-35-transpose/call.sh        (about 450 s)
# The network rank with --dual on DeepCubeA's first 60 35-puzzles, transposed at 4·10^6,
# then the boards and their transposes at 2·10^6 (two beams of 2·10^6 cost what one of
# 4·10^6 does); pair.py sets each portfolio beside the boards' own 4·10^6 rows.
set -u
out=${OUT:-/tmp}
here=results/beam-35-transpose
start=$(date +%s)
for c in transposed-dual-2e6 board-dual-2e6 transposed-dual-4e6; do
  left=$(( ${BUDGET_S:-540} - ($(date +%s) - start) ))
  timeout $left target/device/frontier --quiet run $here/$c.ron --output "$out/$c.csv" > "$out/$c.txt" 2>&1
  echo "$c: rc=$? at $(( $(date +%s) - start )) s"
done
python3 $here/pair.py "$out"
