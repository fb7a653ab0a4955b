#!/bin/bash
# Issue 45: the fused and two-sorter patches (frontier-fs) on seed 3
# 12,000-16,000 (call.sh found 19,000 and 22,000 worse: both the kernel and the host grew),
# seed 3's share 1/3 at 14,000 and 16,000 on one machine. Carry ["target/devpack", this script].
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
run() {  # name binary sample timeout
  mkdir -p $r/$1
  GPU_BUILD=merges FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $4 scripts/boggle-4x4-slice.sh $3 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- | cut -c1-600 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
for s in 14000 16000; do

  run fs-s3-$s frontier-fs gpu-sample:4096:3:7:$s:1/3 170
done
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*(projected [^(]*).*/\1/' | cut -c1-200
