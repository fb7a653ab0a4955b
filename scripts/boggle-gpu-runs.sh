#!/usr/bin/env bash
# Issue 45: Boggle GPU proof runs side by side on one machine, each with its
# own binary, host thread count and phase (machines of one kind differ by up
# to 40% on the host: compare only within a call). Builds nothing.
#   scripts/boggle-gpu-runs.sh [--test TESTS]... LABEL=FRONTIER:THREADS:PHASE ...
# --test TESTS (repeatable): a GPU proof test binary (`cargo test --release
# -p frontier-boggle --test boggle --no-run`, stripped) runs first; if any
# fails, the runs are skipped. PHASE is one of scripts/boggle-4x4-slice.sh
# (gpu-sample:N:SEED:DEPTH:SWITCHOVER, ...). FRONTIER may be a wrapper that
# adds flags, e.g. printf '#!/bin/sh\nexec "$(dirname "$0")/frontier" "$@"
# --gpu-host-copies always\n'. With RUST_LOG=info each run's log names the
# kernel's registers and blocks. Results: $OUT/table.txt (kept after every
# run, so a call cut short still returns its rows) and $OUT/runs.tgz (each
# run's JSON and log).
set -u
OUT=${OUT:-/tmp}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
work=$(mktemp -d)
mkdir -p "$OUT"
table=$OUT/table.txt
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)" > "$table"
tests_passed=1
while [ "${1:-}" = --test ]; do
  start=$(date +%s)
  FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 "$2" gpu_proofs --test-threads 1 \
    > "$work/gpu-test-$(basename "$2").log" 2>&1
  rc=$?
  echo "$(basename "$2"): GPU test rc=$rc in $(( $(date +%s) - start )) s: $(grep 'test result' "$work/gpu-test-$(basename "$2").log")" >> "$table"
  [ $rc -eq 0 ] || tests_passed=0
  shift 2
done
if [ $# -eq 0 ]; then
  echo "usage: $0 [--test TESTS]... LABEL=FRONTIER:THREADS:PHASE ..." >&2
  exit 2
fi
for run in "$@"; do
  label=${run%%=*}
  IFS=: read -r bin threads phase <<< "${run#*=}"
  if [ $tests_passed -eq 0 ]; then
    echo "$label: skipped (the GPU test failed)" >> "$table"
    continue
  fi
  mkdir -p "$work/$label"
  THREADS=$threads OUT=$work/$label FRONTIER_BIN=$bin scripts/boggle-4x4-slice.sh "$phase" \
    | tail -n 1 | sed "s/^/$label /" >> "$table"
done
tar czf "$OUT/runs.tgz" -C "$work" .
cat "$table"
