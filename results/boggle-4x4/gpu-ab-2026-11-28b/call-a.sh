#!/usr/bin/env bash
# Device call A (2026-11-28 fifteenth session): one-advance GPU test; d7 256 classes
# main/one/regs12 on 16 threads; main on 32 threads at d7 and d6.
set -u
export CUDA_VISIBLE_DEVICES=0 XDG_CACHE_HOME=/tmp/frontier-cache RUST_LOG=info
R=$OUT/r; mkdir -p $R
t() { echo "$*" >> $OUT/table.txt; }
t "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
s=$(date +%s)
FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 target/device/boggle-tests-one gpu_proofs --test-threads 1 > $R/test-one.log 2>&1
t "one GPU test rc=$? in $(( $(date +%s) - s )) s: $(grep 'test result' $R/test-one.log)"
go() { # label bin threads phase [env...]
  local label=$1 bin=$2 th=$3 phase=$4; shift 4
  mkdir -p $R/$label
  env "$@" THREADS=$th OUT=$R/$label FRONTIER_BIN=$bin scripts/boggle-4x4-slice.sh "$phase" | tail -n 1 | sed "s/^/$label /" >> $OUT/table.txt
  grep -h "registers" $R/$label/stderr.log | tail -1 | sed "s/^/$label /" >> $OUT/table.txt
}
go main-16-d7 target/device/frontier-main 16 gpu-sample:256:1:7:16000
go one-16-d7 target/device/frontier-one 16 gpu-sample:256:1:7:16000
go regs12-16-d7 target/device/frontier-regs 16 gpu-sample:256:1:7:16000 FRONTIER_BOGGLE_MIN_BLOCKS=12
go main-32-d7 target/device/frontier-main 32 gpu-sample:256:1:7:16000
go main-32-d6 target/device/frontier-main 32 gpu-sample:256:1:6:16000
tar czf $OUT/r.tgz -C $OUT r
cat $OUT/table.txt
