#!/bin/bash
# Issue 45: where a merge's read-back waits, with the stages' events made once (callD). One binary (target/device-c/frontier-tmp),
# FRONTIER_TMP_FULL_READ=1 reading every merged word back (f) or only the reached records (r).
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
for run in r1 f1 r2 f2; do
  mkdir -p $r/$run
  full=; [ "${run:0:1}" = f ] && full=1
  env ${full:+FRONTIER_TMP_FULL_READ=1} GPU_BUILD=merges FRONTIER_BIN=target/device-c/frontier-tmp THREADS=16 OUT=$r/$run timeout 70 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/$run/table.txt 2>&1
  echo "== $run" >> $r/summary.txt; grep rc= $r/$run/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$run/stderr.log | cut -c40- | cut -c1-700 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
done
cat $r/summary.txt
