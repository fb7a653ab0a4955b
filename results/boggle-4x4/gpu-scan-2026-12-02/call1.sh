#!/bin/bash
# Issue 45 (2026-12-02, twenty-eighth session): every scan in blocks of 256 threads and
# the merges' log. Seed 1's 256 with main's build (frontier-main) and the patch's, on one
# machine, then the merge and proof GPU tests. Tarred after each step.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r; : > $r/summary.txt
for run in "main frontier-main" "scan frontier" "main2 frontier-main" "scan2 frontier"; do
  set -- $run
  mkdir -p $r/$1
  GPU_BUILD=merges FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout 70 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-420 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
done
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-lib gpu_merges_equal_the_cpus --nocapture > $r/merge.log 2>&1
echo "merge test rc=$?" | tee -a $r/summary.txt
grep -hE "MERGES|panicked" $r/merge.log >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
FRONTIER_REQUIRE_GPU=1 timeout 170 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/tests.log 2>&1
echo "proof test rc=$?" | tee -a $r/summary.txt
grep -hE "panicked|assert|test result" -A 3 $r/tests.log | head -20 >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
cat $r/summary.txt
