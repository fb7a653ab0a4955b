#!/bin/bash
# Issue 45 (2026-12-02, twenty-ninth session): the merges' launches given their buffers'
# addresses, taken once a merge, instead of the buffers (cudarc's two event calls per buffer
# per launch). The merges' GPU test, then the branch (a) and main (m, the events made once)
# on seed 1's 256 on the same machine. Tarred after each step.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 100 target/device-f/boggle-lib gpu_merges_equal_the_cpus --test-threads 1 > $r/merges.log 2>&1; echo "merges test rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name binary
  mkdir -p $r/$1
  GPU_BUILD=merges FRONTIER_BIN=target/device-f/$2 THREADS=16 OUT=$r/$1 timeout 60 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU" $r/$1/stderr.log | cut -c40- | cut -c1-600 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
run a1 frontier
run m1 frontier-main
run a2 frontier
cat $r/summary.txt
