#!/bin/bash
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
mkdir -p $OUT/r
FRONTIER_BIN=target/device/frontier-gpu-collect-always THREADS=16 OUT=$OUT/r scripts/boggle-4x4-slice.sh gpu-sample:4096:3:7:16000:1/3 > $OUT/r/table.txt 2>&1
tail -n 3 $OUT/r/table.txt
tar czf $OUT/r.tgz -C $OUT r
