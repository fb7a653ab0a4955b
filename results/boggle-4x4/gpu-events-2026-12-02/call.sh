#!/bin/bash
# Issue 45 (2026-12-02, twenty-ninth session): the page-locked stages' events made once instead of
# one per copy. The GPU tests (merges, proofs), then on the same machine main (m) against the
# branch (e) on seed 1's 256, then the branch on seed 3's share 1/3. Tarred after each step.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-lib gpu_merges_equal_the_cpus --test-threads 1 > $r/merges.log 2>&1; echo "merges test rc=$?" >> $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name binary sample timeout
  mkdir -p $r/$1
  GPU_BUILD=merges FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $4 scripts/boggle-4x4-slice.sh $3 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds|uploads|walked on the CPU" $r/$1/stderr.log | cut -c40- | cut -c1-600 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
run m1 frontier-main gpu-sample:256:1:7:16000 70
run e1 frontier gpu-sample:256:1:7:16000 70
run m2 frontier-main gpu-sample:256:1:7:16000 70
run e2 frontier gpu-sample:256:1:7:16000 70
run e3 frontier gpu-sample:4096:3:7:16000:1/3 170
cat $r/summary.txt
