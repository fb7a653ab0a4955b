#!/bin/bash
# Issue 45 (2026-12-02, twenty-seventh session): the merges on the GPU in the proof
# (--gpu-build merges). The GPU tests (merges word for word; GPU proofs = CPU proofs with
# every build, merges included), then seed 1's 256 classes with `merges` and `tree`, and
# seed 3's share 1/3 with `merges`, 16 host threads.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-lib gpu_merges_equal_the_cpus --nocapture > $r/merge.log 2>&1
echo "merge test rc=$?" | tee $r/summary.txt
grep -hE "MERGES|panicked" $r/merge.log >> $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/tests.log 2>&1
echo "proof test rc=$?" | tee -a $r/summary.txt
grep -hE "panicked|assert" -A 3 $r/tests.log | head -20 >> $r/summary.txt
for run in "m merges gpu-sample:256:1:7:16000" "t tree gpu-sample:256:1:7:16000" "s merges gpu-sample:4096:3:7:16000:1/3"; do
  set -- $run
  mkdir -p $r/$1
  GPU_BUILD=$2 FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$r/$1 timeout 170 scripts/boggle-4x4-slice.sh $3 > $r/$1/table.txt 2>&1
  echo "== $2 $3" >> $r/summary.txt; grep rc= $r/$1/table.txt >> $r/summary.txt; grep -hE "GPU builds|host threads' .* on classes|merges on the GPU|WARN" $r/$1/stderr.log >> $r/summary.txt
done
tar czf $OUT/r.tgz -C $OUT r
cat $r/summary.txt
