#!/bin/bash
# Issue 45 (2026-12-02, twenty-fifth session), fourth call: trees read back through
# page-locked buffers. The tree test (with the read's time), seed 1's 256 classes, seed 3's
# share 2/3 again (its first run was the first try's build). Carried:
# target/device/{frontier,boggle-lib}.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
mkdir -p $OUT/r/tree $OUT/r/s3
FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-lib gpu_sorted_paths_equal_the_cpus --nocapture > $OUT/r/lib.log 2>&1
lib=$?
echo "lib tests rc=$lib" | tee $OUT/r/summary.txt
grep -E "TREES|PATHS|panicked|test result" $OUT/r/lib.log | tee -a $OUT/r/summary.txt
if [ $lib = 0 ]; then
  FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$OUT/r/tree scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $OUT/r/tree/table.txt 2>&1
  echo "== tree" | tee -a $OUT/r/summary.txt; tail -n 1 $OUT/r/tree/table.txt | tee -a $OUT/r/summary.txt
  FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$OUT/r/s3 timeout 180 scripts/boggle-4x4-slice.sh gpu-sample:4096:3:7:16000:2/3 > $OUT/r/s3/table.txt 2>&1
  echo "== seed 3 share 2/3" | tee -a $OUT/r/summary.txt; tail -n 1 $OUT/r/s3/table.txt | tee -a $OUT/r/summary.txt
fi
tar czf $OUT/r.tgz -C $OUT r
