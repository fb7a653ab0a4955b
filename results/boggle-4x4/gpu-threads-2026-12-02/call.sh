#!/bin/bash
# Issue 45 (2026-12-02, twenty-sixth session): the collection's two passes as one
# template (review mend) and the builds' stream at the highest priority. The GPU tests
# (tree built on the GPU = the CPU's; GPU proofs = CPU proofs), then seed 1's 256
# classes with 16, 24 and 32 host threads on the 16 cores (a host thread waits on the
# GPU for its class's build, read-back and copies), then seed 3's share 1/3 with 24.
# Carried: target/device/{frontier,boggle-lib,boggle-tests} and this folder.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r/s
FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-lib gpu_sorted_paths_equal_the_cpus --nocapture > $r/lib.log 2>&1
echo "lib test rc=$?" | tee $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/tests.log 2>&1
echo "proof test rc=$?" | tee -a $r/summary.txt
for t in 16 24 32; do
  mkdir -p $r/t$t
  FRONTIER_BIN=target/device/frontier THREADS=$t OUT=$r/t$t timeout 60 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/t$t/table.txt 2>&1
  echo "== $t threads" >> $r/summary.txt; grep rc= $r/t$t/table.txt >> $r/summary.txt; grep -h "GPU builds" $r/t$t/stderr.log >> $r/summary.txt
done
mkdir -p $r/s3
FRONTIER_BIN=target/device/frontier THREADS=24 OUT=$r/s3 timeout 200 scripts/boggle-4x4-slice.sh gpu-sample:4096:3:7:16000:1/3 > $r/s3/table.txt 2>&1
echo "== seed 3 share 1/3, 24 threads" >> $r/summary.txt; grep rc= $r/s3/table.txt >> $r/summary.txt; grep -h "GPU builds" $r/s3/stderr.log >> $r/summary.txt
grep -hE "TREES|PATHS|panicked|test result" $r/lib.log $r/tests.log >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
cat $r/summary.txt
