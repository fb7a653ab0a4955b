#!/bin/bash
# Issue 45 (2026-12-02, twenty-seventh session): the first run of the merges on the GPU
# (gpu_build/merge.rs, kernels/boggle_merge.cu) against the CPU's, word for word.
export CUDA_VISIBLE_DEVICES=0 FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
FRONTIER_REQUIRE_GPU=1 timeout 300 target/device/boggle-lib gpu_merges_equal_the_cpus --nocapture > $r/merge.log 2>&1
echo "merge test rc=$?" | tee $r/summary.txt
grep -hE "MERGES|panicked|differ|test result" $r/merge.log >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
cat $r/summary.txt; tail -5 $r/merge.log
