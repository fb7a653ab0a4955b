#!/bin/bash
# Issue 45 (2026-12-02, twenty-seventh session): the GPU tests on the kept arenas' review
# mend (KeptArenas, never run on a GPU), then seed 1's 256 classes and seed 3's share 1/3
# on 16 host threads, whose logs now say where the host threads' time goes (tree builds,
# merges, handovers, the rest) and how long they waited for the path sorter.
# Carried: target/device/{frontier,boggle-lib,boggle-tests} and this folder.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/tests.log 2>&1
echo "proof test rc=$?" | tee $r/summary.txt
for run in "a gpu-sample:256:1:7:16000" "b gpu-sample:4096:3:7:16000:1/3"; do
  set -- $run
  mkdir -p $r/$1
  FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$r/$1 timeout 200 scripts/boggle-4x4-slice.sh $2 > $r/$1/table.txt 2>&1
  echo "== $2" >> $r/summary.txt; grep rc= $r/$1/table.txt >> $r/summary.txt; grep -hE "GPU builds|host threads' .* on classes" $r/$1/stderr.log >> $r/summary.txt
done
FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-lib gpu_sorted_paths_equal_the_cpus --nocapture > $r/lib.log 2>&1
echo "lib test rc=$?" | tee -a $r/summary.txt
grep -hE "TREES|PATHS|panicked|test result" $r/lib.log $r/tests.log >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
cat $r/summary.txt
