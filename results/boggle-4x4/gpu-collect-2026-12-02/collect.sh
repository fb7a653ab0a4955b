#!/bin/bash
# Issue 45 (2026-12-02): paths collected on the GPU: the GPU proof test, then seed 1's 256
# classes both ways. Carried: target/device/{frontier,boggle-tests,frontier-gpu-collect}.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
mkdir -p $OUT/r/host $OUT/r/gpu
FRONTIER_REQUIRE_GPU=1 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $OUT/r/tests.log 2>&1
echo "tests rc=$?" | tee $OUT/r/summary.txt
tail -n 3 $OUT/r/tests.log
for mode in host gpu; do
  bin=target/device/frontier; [ $mode = gpu ] && bin=target/device/frontier-gpu-collect
  FRONTIER_BIN=$bin THREADS=16 OUT=$OUT/r/$mode scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $OUT/r/$mode/table.txt 2>&1
  echo "== $mode" | tee -a $OUT/r/summary.txt; tail -n 4 $OUT/r/$mode/table.txt | tee -a $OUT/r/summary.txt
done
tar czf $OUT/r.tgz -C $OUT r
