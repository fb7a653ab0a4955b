#!/bin/bash
# Issue 45: how host threads wait on the GPU (FRONTIER_GPU_WAIT, boggle-gpu-wait-flags.patch).
# By default a waiting thread spins on its core; 16 host threads and the GPU, adder and
# uploader threads already share 16 cores, and the levels' waits alone are about 30
# thread-seconds. Build first: results/boggle-4x4/pending/build-wait.sh. Run with carry
# ["target/devpack", "results/boggle-4x4/pending/wait-call.sh"]; builds nothing; about 8
# minutes. Tarred after each step.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-lib gpu_merges_equal_the_cpus --test-threads 1 > $r/merges.log 2>&1; echo "merges test rc=$?" >> $r/summary.txt
FRONTIER_REQUIRE_GPU=1 FRONTIER_GPU_WAIT=yield timeout 200 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test (yield) rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name wait threads sample timeout
  mkdir -p $r/$1
  ( [ "$2" = default ] || export FRONTIER_GPU_WAIT=$2
    GPU_BUILD=merges FRONTIER_BIN=target/device/frontier THREADS=$3 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- | cut -c1-600 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
run default-16 default 16 $S1 60
run yield-16 yield 16 $S1 60
run block-16 block 16 $S1 60
run yield-20 yield 20 $S1 60
run yield-24 yield 24 $S1 60
run block-24 block 24 $S1 60
run default-16b default 16 $S1 60
run yield-24b yield 24 $S1 60
run yield-24-s3 yield 24 gpu-sample:4096:3:7:16000:1/3 170
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*(projected [^(]*).*/\1/' | cut -c1-200
