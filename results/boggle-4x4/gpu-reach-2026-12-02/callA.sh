#!/bin/bash
# Issue 45, reach patch: the device side's test, and the sort's test not run since the scan patch.
export CUDA_VISIBLE_DEVICES=0 FRONTIER_REQUIRE_GPU=1 FRONTIER_DATA=$PWD/data
mkdir -p $OUT/r
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/r/gpu.txt
( time target/device/boggle-lib gpu_merges_equal_the_cpus --test-threads 1 --nocapture ) > $OUT/r/merges.log 2>&1; echo "merges rc=$?" >> $OUT/r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
( time target/device/boggle-lib gpu_sorted_paths_equal_the_cpus --test-threads 1 --nocapture ) > $OUT/r/sorted.log 2>&1; echo "sorted rc=$?" >> $OUT/r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
cat $OUT/r/gpu.txt $OUT/r/summary.txt; tail -5 $OUT/r/merges.log $OUT/r/sorted.log
