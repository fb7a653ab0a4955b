#!/usr/bin/env bash
# Device call C (2026-11-28 fifteenth session): host-thread uploads through page-locked staging (branch
# boggle-host-uploads) against main (one advance), 256 classes at depth 7 on
# 32 and 16 host threads, then 1,024 classes on 32 with the uploads.
set -u
export CUDA_VISIBLE_DEVICES=0 XDG_CACHE_HOME=/tmp/frontier-cache RUST_LOG=info
R=$OUT/r; mkdir -p $R
t() { echo "$*" >> $OUT/table.txt; }
t "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
s=$(date +%s)
FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 target/device/boggle-tests-up2 gpu_proofs --test-threads 1 > $R/test-up2.log 2>&1
rc=$?
t "up GPU test rc=$rc in $(( $(date +%s) - s )) s: $(grep 'test result' $R/test-up2.log)"
go() { # label bin threads phase
  local label=$1 bin=$2 th=$3 phase=$4
  mkdir -p $R/$label
  THREADS=$th OUT=$R/$label FRONTIER_BIN=$bin scripts/boggle-4x4-slice.sh "$phase" | tail -n 1 | sed "s/^/$label /" >> $OUT/table.txt
}
go main-32-d7 target/device/frontier-one 32 gpu-sample:256:1:7:16000
[ $rc -eq 0 ] && go up-32-d7 target/device/frontier-up2 32 gpu-sample:256:1:7:16000
go main-16-d7 target/device/frontier-one 16 gpu-sample:256:1:7:16000
[ $rc -eq 0 ] && go up-16-d7 target/device/frontier-up2 16 gpu-sample:256:1:7:16000
[ $rc -eq 0 ] && go up-32-d7-1024 target/device/frontier-up2 32 gpu-sample:1024:1:7:16000
tar czf $OUT/r.tgz -C $OUT r
cat $OUT/table.txt
