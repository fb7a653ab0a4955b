#!/bin/bash
# Issue 45: the GPU tests of the fused and two-sorter patches together (frontier-fs), then
# seed 1's 256 at switchovers 16,000-22,000 with main and fs, interleaved (the host bounds
# the wall at 16,000: a higher switchover moves forcing from the host to the kernel).
# Carry ["target/devpack", this script]; builds nothing. Tarred after each step.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-lib gpu_merges_equal_the_cpus --test-threads 1 > $r/merges.log 2>&1; echo "merges test rc=$?" >> $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name binary sample timeout
  mkdir -p $r/$1
  GPU_BUILD=merges FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $4 scripts/boggle-4x4-slice.sh $3 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- | cut -c1-600 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
for s in 16000 19000 22000 16000 19000; do
  for b in main fs; do
    k=1; [ -d $r/$b-$s-1 ] && k=2
    run $b-$s-$k frontier-$b gpu-sample:256:1:7:$s 60
  done
done
grep -E "^==|rc=" $r/summary.txt | sed -E 's/(projected [^(]*).*/\1/' | cut -c1-200
