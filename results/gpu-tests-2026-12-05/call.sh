#!/usr/bin/env bash
# Every GPU test of the boggle, pancake, nonogram and wordle crates on HEAD's
# build (CPU = GPU), one device call. Builds nothing: needs
# target/device/gt.txz (stripped release test binaries, see README.md) and
# the Wordle lists under .devdata/data (carried; not shippable).
set -uo pipefail
out=${OUT:-/tmp/gpu-tests}
mkdir -p "$out" /tmp/gt
tar -C /tmp -xJf target/device/gt.txz
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
export FRONTIER_REQUIRE_GPU=1 FRONTIER_DATA=$PWD/.devdata/data
summary=$out/summary.txt
: > "$summary"
for t in pancake frontier_pancake wordle frontier_wordle nonogram frontier_nonogram frontier_boggle boggle; do
  start=$(date +%s)
  /tmp/gt/$t-tests gpu --test-threads 1 > "$out/$t.log" 2>&1
  rc=$?
  line=$(grep -E "^test result" "$out/$t.log" | tail -1)
  skipped=$(grep -ci "skip" "$out/$t.log")
  echo "$t rc=$rc $(( $(date +%s) - start )) s; $line; lines saying skip: $skipped" | tee -a "$summary"
done
echo "== summary"; cat "$summary"
