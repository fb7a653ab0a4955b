#!/bin/bash
# Issue 45 (2026-12-02, twenty-seventh session): the same machine for every row (machines
# of this kind differ by a fifth): seed 1's 256 with tree and merges, the walk leaving 0
# or 2 blocks a SM free (FRONTIER_TMP_RESERVE), 16 host threads; the summary is tarred
# after each run (the call may be cut at the session's device budget).
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r; : > $r/summary.txt
for run in "t0 0 tree" "m0 0 merges" "m2 2 merges" "t2 2 tree"; do
  set -- $run
  mkdir -p $r/$1
  FRONTIER_TMP_RESERVE=$2 GPU_BUILD=$3 FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$r/$1 timeout 60 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/$1/table.txt 2>&1
  echo "== reserve $2 $3" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-420 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
done
cat $r/summary.txt
