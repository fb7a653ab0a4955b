#!/bin/bash
# Issue 45 (2026-12-02, twenty-seventh session): the merges on the GPU wait for SMs that
# the walk's persistent blocks hold (9 blocks a SM, every register). A temporary build
# leaves R of them free a SM (FRONTIER_TMP_RESERVE): seed 1's 256 with merges at R = 1
# and 2, with tree at R = 2; seed 3's share 1/3 with merges at R = 2. 16 host threads.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r; : > $r/summary.txt
for run in "m1 1 merges gpu-sample:256:1:7:16000" "m2 2 merges gpu-sample:256:1:7:16000" "t2 2 tree gpu-sample:256:1:7:16000" "s2 2 merges gpu-sample:4096:3:7:16000:1/3"; do
  set -- $run
  mkdir -p $r/$1
  FRONTIER_TMP_RESERVE=$2 GPU_BUILD=$3 FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$r/$1 timeout 200 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1
  echo "== reserve $2 $3 $4" >> $r/summary.txt; grep rc= $r/$1/table.txt >> $r/summary.txt; grep -hE "prove kernel|GPU builds|host threads' .* on classes|merges on the GPU|WARN" $r/$1/stderr.log >> $r/summary.txt
done
tar czf $OUT/r.tgz -C $OUT r
cat $r/summary.txt
