#!/usr/bin/env bash
# ab.sh: the GPU proof tests on the two-streams build, then main and
# two-streams on seed 1's 256 classes at depths 6 and 7 (16 threads).
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info XDG_CACHE_HOME=/tmp/fc
mkdir -p $OUT/r
s=$(date +%s)
FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs --test-threads 1 > $OUT/r/gpu-test.log 2>&1
echo "gpu-test rc=$? $(( $(date +%s) - s )) s: $(grep 'test result' $OUT/r/gpu-test.log)" > $OUT/table.txt
for d in 6 7; do
  for b in main two; do
    bin=target/device/frontier-always; [ $b = two ] && bin=target/device/frontier-two-always
    mkdir -p $OUT/r/$b-d$d
    OUT=$OUT/r/$b-d$d THREADS=16 FRONTIER_BIN=$bin timeout 120 scripts/boggle-4x4-slice.sh gpu-sample:256:1:$d:16000 2>&1 | tail -1 | sed "s/^/$b /" >> $OUT/table.txt
  done
done
tar czf $OUT/runs.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/table.txt
