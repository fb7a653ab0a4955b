#!/usr/bin/env bash
# Issue 45: Boggle GPU builds side by side on one machine (machines of one
# kind differ by up to 40% on the host, so compare only within a run).
# Builds nothing.
#   scripts/boggle-gpu-ab.sh NAME=FRONTIER[:TESTS] ... -- PHASE ...
# Each NAME's GPU proof test runs first (TESTS: the stripped binary of
# `cargo test --release -p frontier-boggle --test boggle --no-run`); a build
# whose test fails is left out of the phases. Then every PHASE of
# scripts/boggle-4x4-slice.sh (gpu-sample:..., gpu-profile:...) runs for each
# build in turn, phase by phase, so that the builds share the machine's
# state. Results: $OUT/ab.tgz (one JSON and log per build and phase), and a
# table, last.
set -u
OUT=${OUT:-/tmp}
work=$(mktemp -d)
builds=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do builds+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
if [ ${#builds[@]} -eq 0 ] || [ $# -eq 0 ]; then
  echo "usage: $0 NAME=FRONTIER[:TESTS] ... -- PHASE ..." >&2
  exit 2
fi
table="$work/table.txt"
grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: */host: /' > "$table"
passed=()
for build in "${builds[@]}"; do
  name=${build%%=*}
  rest=${build#*=}
  bin=${rest%%:*}
  tests=${rest#"$bin"}
  tests=${tests#:}
  if [ ! -x "$bin" ]; then
    echo "$name: no binary $bin" >> "$table"
    continue
  fi
  if [ -n "$tests" ]; then
    start=$(date +%s)
    FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 "$tests" gpu_proofs --test-threads 1 \
      > "$work/test-$name.log" 2>&1
    rc=$?
    echo "$name: GPU test rc=$rc in $(( $(date +%s) - start )) s: $(grep 'test result' "$work/test-$name.log")" >> "$table"
    [ $rc -ne 0 ] && continue
  fi
  passed+=("$name=$bin")
  cp "$table" "$OUT/table.txt"
done
for phase in "$@"; do
  for build in "${passed[@]}"; do
    name=${build%%=*}
    bin=${build#*=}
    dir="$work/$name-${phase//[:\/]/-}"
    mkdir -p "$dir"
    OUT=$dir FRONTIER_BIN=$bin scripts/boggle-4x4-slice.sh "$phase" | tail -n +2 \
      | sed "s/^/$name /" >> "$table"
    # A run cut short by its time limit still returns the rows so far.
    cp "$table" "$OUT/table.txt"
  done
done
tar czf "$OUT/ab.tgz" -C "$work" .
cat "$table"
