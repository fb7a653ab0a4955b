#!/bin/bash
# Issue 45 (2026-12-02, twenty-eighth session): where a merge's time goes (the levels'
# waits for their totals, the bounds, the read-back), with the merged words read back from
# pageable memory (p) or through page-locked buffers (FRONTIER_TMP_PINNED, k); seed 1's
# 256, 16 host threads, then 14 (h14). Tarred after each run.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r; : > $r/summary.txt
for run in "p1 16" "k1 16" "p2 16" "k2 16" "h14 14"; do
  set -- $run
  mkdir -p $r/$1
  pinned=; [ "${1:0:1}" = k ] && pinned=1
  FRONTIER_TMP_PINNED=$pinned GPU_BUILD=merges FRONTIER_BIN=target/device/frontier THREADS=$2 OUT=$r/$1 timeout 70 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-300 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
done
cat $r/summary.txt
