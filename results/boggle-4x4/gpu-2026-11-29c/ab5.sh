#!/usr/bin/env bash
# ab5.sh: main and two compute streams on seed 1's 256 classes at depth 5,
# where the kernel bounds even on 16 host threads.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info XDG_CACHE_HOME=/tmp/fc
mkdir -p $OUT/r
: > $OUT/table.txt
for b in two main; do
  bin=target/device/frontier-always; [ $b = two ] && bin=target/device/frontier-two-always
  mkdir -p $OUT/r/$b-d5
  OUT=$OUT/r/$b-d5 THREADS=16 FRONTIER_BIN=$bin timeout 85 scripts/boggle-4x4-slice.sh gpu-sample:256:1:5:16000 2>&1 | tail -1 | sed "s/^/$b /" >> $OUT/table.txt
done
tar czf $OUT/runs.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/table.txt
