#!/usr/bin/env bash
# The Wordle first-guess sweep on the device machine's host (all cores), plus
# the one-core SALET proof and the GPU ranking, for docs/RESULTS.md. Builds
# nothing: needs a prebuilt frontier ($FRONTIER_BIN, default
# target/release/frontier) and the word lists under $FRONTIER_DATA/wordle.
set -euo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/wordle-sweep}
mkdir -p "$out"
nproc
lscpu | grep -m1 "Model name" || true
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || true
timed() { # label, command...
  local label=$1 start
  shift
  start=$(date +%s%N)
  "$@" > "$out/$label.txt"
  echo "$label: $(( ($(date +%s%N) - start) / 1000000 )) ms wall" | tee -a "$out/times.txt"
  tail -8 "$out/$label.txt"
}
timed sweep "$bin" wordle sweep --checkpoint "$out/sweep.tsv"
timed sweep-margin-12 "$bin" wordle sweep --margin 12
timed sweep-json "$bin" --json wordle sweep --threads 8
RAYON_NUM_THREADS=1 timed prove-salet-one-core "$bin" wordle prove --first salet
timed bench-gpu "$bin" wordle bench --gpu || echo "(no GPU ranking)"
echo "== summary"
cat "$out/times.txt"
