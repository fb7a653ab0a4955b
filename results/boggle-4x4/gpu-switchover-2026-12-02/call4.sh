#!/bin/bash
# Issue 45: seed 3's share 1/3 at switchover 14,000 with a class too large for the GPU's
# merges falling back to the host alone (call3.sh: the first such class stopped every
# thread's GPU merges). Carry ["target/devpack", this script]; builds nothing.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r/fs-s3-14000
GPU_BUILD=merges FRONTIER_BIN=target/device/frontier-fs THREADS=16 OUT=$r/fs-s3-14000 timeout 190 scripts/boggle-4x4-slice.sh gpu-sample:4096:3:7:14000:1/3 > $r/fs-s3-14000/table.txt 2>&1
grep -hE "merges on the host|WARN" $r/fs-s3-14000/stderr.log | cut -c1-250
tail -2 $r/fs-s3-14000/table.txt | cut -c1-400
