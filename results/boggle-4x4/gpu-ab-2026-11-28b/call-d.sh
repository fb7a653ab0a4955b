#!/usr/bin/env bash
# Device call D (2026-11-28 fifteenth session): host copies only when the GPU's
# queue is full (up3a), plus the memory pool kept (up3b), against main.
set -u
export CUDA_VISIBLE_DEVICES=0 XDG_CACHE_HOME=/tmp/frontier-cache RUST_LOG=info
R=$OUT/r; mkdir -p $R
t() { echo "$*" >> $OUT/table.txt; }
t "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
s=$(date +%s)
FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 target/device/boggle-tests-up3b gpu_proofs --test-threads 1 > $R/test-up3b.log 2>&1
rc=$?
t "up3b GPU test rc=$rc in $(( $(date +%s) - s )) s: $(grep 'test result' $R/test-up3b.log)"
go() { # label bin threads phase
  local label=$1 bin=$2 th=$3 phase=$4
  mkdir -p $R/$label
  THREADS=$th OUT=$R/$label FRONTIER_BIN=$bin scripts/boggle-4x4-slice.sh "$phase" | tail -n 1 | sed "s/^/$label /" >> $OUT/table.txt
}
go main-16-d7 target/device/frontier-one 16 gpu-sample:256:1:7:16000
[ $rc -eq 0 ] && go up3b-16-d7 target/device/frontier-up3b 16 gpu-sample:256:1:7:16000
go main-32-d7 target/device/frontier-one 32 gpu-sample:256:1:7:16000
go up3a-32-d7 target/device/frontier-up3a 32 gpu-sample:256:1:7:16000
[ $rc -eq 0 ] && go up3b-32-d7 target/device/frontier-up3b 32 gpu-sample:256:1:7:16000
[ $rc -eq 0 ] && go up3b-32-d7-1024 target/device/frontier-up3b 32 gpu-sample:1024:1:7:16000
go main-32-d7-1024 target/device/frontier-one 32 gpu-sample:1024:1:7:16000
tar czf $OUT/r.tgz -C $OUT r
cat $OUT/table.txt
